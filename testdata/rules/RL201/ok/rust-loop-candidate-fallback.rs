// Fallback over a shrinking list: each pass takes another candidate
// (handed `&mut` to the sampler that removes it, or popped) and tries it
// at once; the same call is not repeated (tensorzero's variant fallback).
async fn infer(candidates: &mut Vec<Variant>, input: &Input) -> Result<Output, Error> {
    let mut errors = Vec::new();
    while !candidates.is_empty() {
        let variant = match sample(&mut *candidates).await {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        match variant.infer(input).await {
            Ok(out) => return Ok(out),
            Err(e) => {
                tracing::warn!("variant failed, retrying another: {e}");
                errors.push(e);
                continue;
            }
        }
    }
    Err(Error::AllFailed(errors))
}

async fn first_mirror(mirrors: &mut Vec<Url>) -> Option<Bytes> {
    while !mirrors.is_empty() {
        let url = mirrors.pop()?;
        match download(&url).await {
            Ok(b) => return Some(b),
            Err(e) => {
                tracing::warn!(%url, "mirror failed, retrying the next: {e}");
                continue;
            }
        }
    }
    None
}

use http::{Request, Response, StatusCode};
use tower::retry::Policy;

#[derive(Clone)]
pub struct Retries {
    attempt: u32,
    max: u32,
}

impl Retries {
    pub fn new(max: u32) -> Self {
        Self { attempt: 0, max }
    }
}

impl Default for Retries {
    fn default() -> Self {
        Self::new(2)
    }
}

impl<B: Clone, Res, E> Policy<Request<B>, Response<Res>, E> for Retries {
    type Future = std::future::Ready<()>;

    fn retry(&mut self, _req: &mut Request<B>, result: &mut Result<Response<Res>, E>) -> Option<Self::Future> {
        match result {
            Ok(res)
                if (res.status() == StatusCode::SERVICE_UNAVAILABLE
                    || res.status() == StatusCode::GATEWAY_TIMEOUT)
                    && self.attempt < self.max =>
            {
                self.attempt += 1;
                Some(std::future::ready(()))
            }
            _ => None,
        }
    }

    fn clone_request(&mut self, req: &Request<B>) -> Option<Request<B>> {
        Some(req.clone())
    }
}

// The function deletes a Job and then creates its replacement; deletion is
// asynchronous and the name stays taken until it completes, so only a
// `409` goes round, every other error leaves. The loop waits for the
// deletion to finish (a state), it does not retry a failed create
// (kata-containers `kata-deploy/job-dispatcher` `replace_job`, `7c6ba40c`;
// nineteenth pass).
use std::time::Duration;

const REPLACE_ATTEMPTS: u32 = 30;
const REPLACE_INTERVAL: Duration = Duration::from_secs(2);

pub async fn replace_job(jobs: &Api<Job>, name: &str, desired: &Job) -> anyhow::Result<()> {
    let delete = DeleteParams::foreground();
    match jobs.delete(name, &delete).await {
        Ok(_) => (),
        Err(kube::Error::Api(e)) if e.code == 404 => (),
        Err(err) => return Err(err.into()),
    }
    let post = PostParams::default();
    for _ in 0..REPLACE_ATTEMPTS {
        match jobs.create(&post, desired).await {
            Ok(_) => return Ok(()),
            Err(kube::Error::Api(e)) if e.code == 409 => {
                tokio::time::sleep(REPLACE_INTERVAL).await;
            }
            Err(err) => return Err(err.into()),
        }
    }
    anyhow::bail!("the stale job {name} was still being deleted")
}

// Only a not-ready error goes round (kata-containers `7c6ba40c`,
// dragonball `handle_request_with_retry`, seventeenth pass): every other
// failure, the request's own or the channel's, leaves at once. Each pass
// asks whether the service has come up; it does not repeat a failed
// operation, so many passes a short wait apart are a readiness wait, not
// too many attempts at a server.
use std::time::Duration;

const REQUEST_RETRY: u32 = 500;

pub enum ActionError {
    UpcallServerNotReady,
    Other(String),
}

pub struct Vmm {
    client: reqwest::blocking::Client,
}

impl Vmm {
    fn send_request(&self, body: &str) -> Result<Result<String, ActionError>, reqwest::Error> {
        let r = self.client.post("https://vmm.example/action").body(body.to_string()).send()?;
        Ok(Ok(r.text()?))
    }

    pub fn handle_request_with_retry(&self, body: &str) -> Result<String, String> {
        for _ in 0..REQUEST_RETRY {
            match self.send_request(body) {
                Ok(outcome) => match outcome {
                    Ok(data) => return Ok(data),
                    Err(action_error) => {
                        if let ActionError::UpcallServerNotReady = action_error {
                            std::thread::sleep(Duration::from_millis(10));
                            continue;
                        } else {
                            return Err("action failed".into());
                        }
                    }
                },
                Err(err) => return Err(err.to_string()),
            }
        }
        Err("never ready".into())
    }
}

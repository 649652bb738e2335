use std::time::Duration;

fn publish(queue: &Queue, msg: &Message) -> Result<(), QueueError> {
    let mut attempt = 0;
    loop {
        match queue.send(msg) {
            Ok(()) => return Ok(()),
            Err(e) => {
                attempt += 1;
                if attempt >= 3 {
                    return Err(e);
                }
                std::thread::sleep(Duration::from_millis(100 * fastrand::u64(1..4)));
            }
        }
    }
}

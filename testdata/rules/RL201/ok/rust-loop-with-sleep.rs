fn fetch_config(client: &Client) -> Result<Config, Error> {
    let mut delay = Duration::from_millis(100);
    for _ in 0..3 {
        match client.get_config() {
            Ok(c) => return Ok(c),
            Err(e) if e.is_retryable() => {
                std::thread::sleep(delay + Duration::from_millis(fastrand::u64(0..100)));
                delay *= 2;
            }
            Err(e) => return Err(e),
        }
    }
    client.get_config()
}

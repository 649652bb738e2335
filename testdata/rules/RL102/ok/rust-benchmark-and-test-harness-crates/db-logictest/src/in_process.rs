// A logic-test runner crate (`*-logictest`): it starts the server in process
// to run test scripts against it; its start-up retry is test code.
async fn start_server(opts: &RunOptions, authority: Arc<Authority>) -> Handle {
    let mut retry: usize = 0;
    loop {
        retry += 1;
        match Builder::for_tests().start(Arc::clone(&authority)).await {
            Ok(handle) => return handle,
            Err(err) => {
                if retry > 100 {
                    panic!("{err:?}")
                }
                tokio::time::sleep(Duration::from_millis(1000)).await;
            }
        }
    }
}

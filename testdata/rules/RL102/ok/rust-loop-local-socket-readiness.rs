// Readiness waits on sockets of this host, each reached another way than
// by the attempt's own name (kata-containers `7c6ba40c`, seventeenth
// pass): the agent's hybrid-vsock socket through a helper of this file
// whose body is `UnixStream::connect`, a QMP socket through a closure made
// before the loop, a `unix://` ttrpc address made before the loop, a vsock
// address (`VsockAddr`, `AddressFamily::Vsock`) and an HTTP API over a Unix
// connector (`hyperlocal`). The peer is a process this program started on
// this machine; a pass that fails finds it not listening yet. No server is
// retried, so no predicate, delay or limit is due.
use anyhow::{Context, Result, anyhow};
use hyperlocal::Uri;
use nix::sys::socket::{AddressFamily, SockFlag, SockType, VsockAddr, connect, socket};
use std::os::unix::net::UnixStream as StdUnixStream;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::UnixStream;

pub struct HybridVsock {
    uds: String,
    port: u32,
}

impl HybridVsock {
    pub async fn connect(&self, tries: u64) -> Result<UnixStream> {
        let mut last = None;
        for _ in 0..tries {
            match connect_helper(&self.uds, self.port).await {
                Ok(s) => return Ok(s),
                Err(e) => {
                    last = Some(e);
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
        Err(last.unwrap_or_else(|| anyhow!("no attempt")))
    }
}

async fn connect_helper(uds: &str, port: u32) -> Result<UnixStream> {
    let mut stream = UnixStream::connect(uds).await.context("connect")?;
    stream.write_all(format!("connect {port}\n").as_bytes()).await?;
    Ok(stream)
}

pub fn open_monitor(path: &str) -> Result<StdUnixStream> {
    let try_once = || -> Result<StdUnixStream> {
        let s = StdUnixStream::connect(path)?;
        s.set_read_timeout(Some(Duration::from_millis(500)))?;
        Ok(s)
    };
    loop {
        match try_once() {
            Ok(s) => return Ok(s),
            Err(e) => {
                eprintln!("monitor not ready yet: {e}");
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

pub async fn connect_vm_service(socket_path: &str) -> Result<ttrpc::asynchronous::Client> {
    let address = format!("unix://{socket_path}");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match ttrpc::asynchronous::Client::connect(&address).await {
            Ok(c) => return Ok(c),
            Err(err) => {
                if Instant::now() >= deadline {
                    return Err(anyhow!("vm service socket {socket_path}: {err:?}"));
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

pub fn agent_fd(cid: u32, port: u32) -> Result<i32> {
    let sock_addr = VsockAddr::new(cid, port);
    for _ in 0..10 {
        let fd = socket(AddressFamily::Vsock, SockType::Stream, SockFlag::SOCK_CLOEXEC, None)?;
        match connect(fd, &sock_addr) {
            Ok(_) => return Ok(fd),
            Err(e) => {
                eprintln!("agent not listening yet: {e}");
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        }
    }
    Err(anyhow!("no vsock connection to the agent"))
}

pub struct VmmApi {
    sock_path: String,
    client: hyper::Client,
}

impl VmmApi {
    pub async fn put(&self, path: &str, body: String) -> Result<()> {
        let uri: hyper::Uri = Uri::new(&self.sock_path, path).into();
        for _ in 0..500 {
            let req = hyper::Request::put(uri.clone()).body(body.clone())?;
            match self.client.request(req).await {
                Ok(_) => return Ok(()),
                Err(e) => {
                    eprintln!("vmm api not up yet: {e}");
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
            }
        }
        Err(anyhow!("vmm api did not answer"))
    }
}

// Waits on this host, not retries of a remote call: binding a port again
// until the process being replaced frees it, accepting on a listener until
// the peer arrives, signalling the parent process, and connecting to a
// sibling process over a Unix-domain socket until it listens. Each waits a
// fixed time on purpose; jitter spreads load on a shared server, and there
// is none here.
use std::io::ErrorKind;
use std::net::{SocketAddr, TcpListener};
use std::os::unix::net::UnixStream;
use std::time::Duration;

const BIND_TRIES: usize = 40;

pub fn bind_port(sock: &socket2::Socket, addr: SocketAddr) -> std::io::Result<()> {
    let mut tries = 0;
    loop {
        match sock.bind(&addr.into()) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == ErrorKind::AddrInUse && tries < BIND_TRIES => {
                tries += 1;
                std::thread::sleep(Duration::from_secs(1));
            }
            Err(e) => return Err(e),
        }
    }
}

pub fn take_handoff(listener: &TcpListener) -> std::io::Result<()> {
    let mut waited = 0;
    loop {
        match listener.accept() {
            Ok(_) => return Ok(()),
            Err(e) => {
                waited += 1;
                if waited > 8 {
                    return Err(e);
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        }
    }
}

pub fn tell_parent(pid: i32) {
    for _ in 0..30 {
        match nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::SIGUSR2) {
            Ok(()) => return,
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

pub fn reach_sibling(path: &str) -> std::io::Result<UnixStream> {
    let mut left = 25;
    loop {
        match UnixStream::connect(path) {
            Ok(s) => return Ok(s),
            Err(e) => {
                left -= 1;
                if left == 0 {
                    return Err(e);
                }
                std::thread::sleep(Duration::from_secs(1));
            }
        }
    }
}

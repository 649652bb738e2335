// A desktop program's own machine: each pass opens the clipboard, asks
// the display server for its outputs, or connects to the helper process
// it started (`ipc_connect`). Nothing the attempts call names a network
// crate, a client, a remote operation, a URL or a remote failure, so the
// loops are not retries of a remote operation (an attempt the reader
// cannot classify is not taken as remote).
use std::thread;
use std::time::Duration;

pub fn open_clipboard(ctx: &Context) -> Clipboard {
    loop {
        match Clipboard::open(ctx.window()) {
            Ok(c) => return c,
            Err(e) => {
                log::warn!("clipboard busy: {e}");
                thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

pub fn first_display(screen: &Screen) -> Output {
    loop {
        if let Ok(outputs) = screen.list_outputs() {
            if let Some(o) = outputs.into_iter().next() {
                return o;
            }
        }
        thread::sleep(Duration::from_secs(1));
    }
}

pub fn attach(path: &std::path::Path) -> LocalStream {
    loop {
        match consts::ipc_connect(path) {
            Ok(sock) => return sock,
            Err(_) => thread::sleep(Duration::from_millis(50)),
        }
    }
}

//! `engine gui --port 0` as a child process, and a minimal HTTP/1.1 client
//! for its JSON API, shared by the page's API tests.

#![allow(dead_code)] // each test file uses its own part of it

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

/// A running page server; killed when dropped, its files removed.
pub struct Server {
    child: Child,
    /// The port it listens on.
    pub port: u16,
    /// The organiser token it printed at start-up.
    pub organiser: String,
    /// The crowd mode's database, a temporary file.
    pub db: PathBuf,
    /// The file "Save" appends cases to, a temporary file.
    pub cases: PathBuf,
    /// Leave the files behind when dropped (for a restart on them).
    pub keep: bool,
    /// Play's session cookie (`pinmask_play=...`) once the server set it,
    /// sent back as a browser does. (The crowd's token cookie is not kept:
    /// its tests send their tokens themselves.)
    pub cookies: Mutex<Vec<String>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !self.keep {
            remove_files(self);
        }
    }
}

fn remove_files(s: &Server) {
    let _ = std::fs::remove_file(&s.cases);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", s.db.display()));
    }
}

/// Starts `engine gui` on a free port with fresh temporary files; `name`
/// keeps the files of tests running at once apart.
pub fn start(name: &str) -> Server {
    let base = std::env::temp_dir().join(format!("pinmask-gui-{name}-{}", std::process::id()));
    let (db, cases) = (base.with_extension("sqlite"), base.with_extension("epd"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let _ = std::fs::remove_file(&cases);
    start_on(db, cases)
}

/// [`start`] with more command-line arguments.
pub fn start_with(name: &str, args: &[&str]) -> Server {
    let base = std::env::temp_dir().join(format!("pinmask-gui-{name}-{}", std::process::id()));
    let (db, cases) = (base.with_extension("sqlite"), base.with_extension("epd"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let _ = std::fs::remove_file(&cases);
    start_on_with(db, cases, args)
}

/// Starts `engine gui` on the files as they are, and reads the port and the
/// organiser token from its first two lines.
pub fn start_on(db: PathBuf, cases: PathBuf) -> Server {
    start_on_with(db, cases, &[])
}

fn start_on_with(db: PathBuf, cases: PathBuf, args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["gui", "--port", "0", "--db"])
        .arg(&db)
        .arg("--cases")
        .arg(&cases)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let (mut first, mut second) = (String::new(), String::new());
    out.read_line(&mut first).unwrap();
    out.read_line(&mut second).unwrap();
    let port = first
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
    let organiser = second
        .trim()
        .strip_prefix("organiser token: ")
        .unwrap_or_else(|| panic!("unexpected second line {second:?}"))
        .to_string();
    Server {
        child,
        port,
        organiser,
        db,
        cases,
        keep: false,
        cookies: Mutex::new(Vec::new()),
    }
}

/// One reply: its status, its head (status line and headers) and its body.
pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Reply {
    /// The body as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// The value of header `name` (lower case), if present.
    pub fn header(&self, name: &str) -> Option<String> {
        let prefix = format!("{name}: ");
        self.head
            .to_ascii_lowercase()
            .lines()
            .find_map(|l| l.strip_prefix(&prefix).map(str::to_string))
    }
}

/// Sends `request` as it is to the server on `port` and reads the reply.
pub fn raw(port: u16, request: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply).to_string();
    let status = reply
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {reply:?}"));
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    Reply {
        status,
        head: head.to_string(),
        body: if chunked {
            dechunk(body)
        } else {
            body.to_string()
        },
    }
}

/// The body of a chunked reply (large replies come chunked).
fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).expect("chunk size");
        if size == 0 {
            break;
        }
        out += &tail[..size];
        rest = &tail[size + 2..];
    }
    out
}

impl Server {
    /// One request with extra `headers`; `Host` is ours unless given.
    pub fn request(&self, method: &str, path: &str, headers: &[&str], body: &str) -> Reply {
        let mut text = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|h| h.starts_with("Host:")) {
            text += &format!("Host: 127.0.0.1:{}\r\n", self.port);
        }
        let jar = self.cookies.lock().unwrap().join("; ");
        if !jar.is_empty() && !headers.iter().any(|h| h.starts_with("Cookie:")) {
            text += &format!("Cookie: {jar}\r\n");
        }
        for h in headers {
            text += &format!("{h}\r\n");
        }
        text += &format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let reply = raw(self.port, text.as_bytes());
        if let Some(set) = reply.header("set-cookie") {
            let pair = set.split(';').next().unwrap_or("").to_string();
            if pair.starts_with("pinmask_play=") {
                *self.cookies.lock().unwrap() = vec![pair];
            }
        }
        reply
    }

    /// Status, content type and body of one request.
    pub fn send(&self, method: &str, path: &str, body: &str) -> (u16, String, String) {
        let reply = self.request(method, path, &[], body);
        let content_type = reply.header("content-type").unwrap_or_default();
        (reply.status, content_type, reply.body)
    }

    /// A GET answered with JSON.
    pub fn get(&self, path: &str) -> (u16, Value) {
        let reply = self.request("GET", path, &[], "");
        (reply.status, reply.json())
    }

    /// A POST of `body` answered with JSON.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let reply = self.request("POST", path, &[], &body.to_string());
        (reply.status, reply.json())
    }
}

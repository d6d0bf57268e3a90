//! `engine gui --port 0` as a child process, and a minimal HTTP/1.1 client
//! for its JSON API.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running page server; killed when dropped.
pub struct Server {
    child: Child,
    /// The port it listens on.
    pub port: u16,
    /// The crowd mode's database, a temporary file.
    db: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.db.display()));
        }
    }
}

/// Starts `engine gui` on a free port and reads the port it printed;
/// `name` keeps the database files of tests running at once apart.
pub fn start(name: &str) -> Server {
    let db =
        std::env::temp_dir().join(format!("pinmask-play-{name}-{}.sqlite", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["gui", "--port", "0", "--db"])
        .arg(&db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    Server { child, port, db }
}

impl Server {
    /// Status, content type and body of one request.
    pub fn send(&self, method: &str, path: &str, body: &str) -> (u16, String, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let text = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.port,
            body.len()
        );
        stream.write_all(text.as_bytes()).unwrap();
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply).to_string();
        let status = reply
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {reply:?}"));
        let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
        let head = head.to_ascii_lowercase();
        let content_type = head
            .lines()
            .find_map(|l| l.strip_prefix("content-type: "))
            .unwrap_or("")
            .to_string();
        let body = if head.contains("transfer-encoding: chunked") {
            dechunk(body)
        } else {
            body.to_string()
        };
        (status, content_type, body)
    }

    /// A GET answered with JSON.
    pub fn get(&self, path: &str) -> (u16, Value) {
        let (status, _, body) = self.send("GET", path, "");
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    /// A POST of `body` answered with JSON.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, _, reply) = self.send("POST", path, &body.to_string());
        (status, serde_json::from_str(&reply).unwrap_or(Value::Null))
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

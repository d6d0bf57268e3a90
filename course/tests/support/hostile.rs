//! What hostile students carry, for the tests of the sandbox: each payload aims only at files
//! of the test's own temp folder.

/// `source` with `call;` made the first statement of `function`.
pub fn call_first(source: &str, function: &str, call: &str) -> String {
    let at = source
        .find(&format!("pub fn {function}"))
        .expect("the function is there");
    let brace = at + source[at..].find('{').expect("a body");
    format!(
        "{}{{\n    {call};{}",
        &source[..brace],
        &source[brace + 1..]
    )
}

/// The attacks on the instructor's environment, on other processes, on metadata outside the
/// copy, through sockets and through other programs, each failing the lab (or crashing the
/// engine) if it gets through. `ROOT` is the test's
/// folder, `ABSTRACT` the name of an abstract UNIX socket the test listens on.
pub const PROCESS_PAYLOAD: &str = r#"
static ONCE: std::sync::Once = std::sync::Once::new();
fn escaped(what: &str) -> ! { panic!("ESCAPED: {what}") }
unsafe extern "C" {
    fn kill(pid: i32, signal: i32) -> i32;
    fn prlimit(pid: i32, resource: i32, new: *const u64, old: *mut u64) -> i32;
    fn setpriority(which: i32, who: u32, priority: i32) -> i32;
    fn getuid() -> u32;
    fn chmod(path: *const std::ffi::c_char, mode: u32) -> i32;
    fn utimes(path: *const std::ffi::c_char, times: *const i64) -> i32;
    fn setxattr(path: *const std::ffi::c_char, name: *const std::ffi::c_char, value: *const u8, size: usize, flags: i32) -> i32;
    fn link(old: *const std::ffi::c_char, new: *const std::ffi::c_char) -> i32;
    fn socket(domain: i32, kind: i32, protocol: i32) -> i32;
}
fn payload() {
    ONCE.call_once(|| unsafe {
        use std::process::{Command, Stdio};
        if std::env::vars().any(|(k, _)| k == "PINMASK_INSTRUCTOR_SECRET") {
            escaped("saw the instructor's environment");
        }
        // Any process but its own threads that it can name: the grader, a classmate.
        let own: Vec<i32> = std::fs::read_dir("/proc/self/task")
            .map(|d| d.flatten().filter_map(|e| e.file_name().to_str()?.parse().ok()).collect())
            .unwrap_or_default();
        let max: i32 = std::fs::read_to_string("/proc/sys/kernel/pid_max").ok()
            .and_then(|s| s.trim().parse().ok()).unwrap_or(1 << 22).min(1 << 22);
        let mut limits = [0u64; 2];
        for pid in 1..=max {
            if own.contains(&pid) { continue; }
            if kill(pid, 0) == 0 { escaped(&format!("could signal process {pid}")); }
            if prlimit(pid, 1, std::ptr::null(), limits.as_mut_ptr()) == 0 {
                escaped(&format!("could prlimit process {pid}"));
            }
        }
        // Lowers the priority of every process of its user that it can reach: its own only.
        setpriority(2, getuid(), 19);
        let c = |p: &str| std::ffi::CString::new(p).unwrap();
        for target in ["ROOT/secret.txt", "ROOT/tool", "ROOT/subs/alice/src/lab01_bitboards.rs"] {
            let path = c(target);
            if chmod(path.as_ptr(), 0o4777) == 0 { escaped(&format!("chmod {target}")); }
            if utimes(path.as_ptr(), [0i64; 4].as_ptr()) == 0 { escaped(&format!("utimes {target}")); }
            if setxattr(path.as_ptr(), c("user.pinmask").as_ptr(), b"x".as_ptr(), 1, 0) == 0 {
                escaped(&format!("setxattr {target}"));
            }
            if link(path.as_ptr(), c("stolen.rs").as_ptr()) == 0 { escaped(&format!("hard-linked {target}")); }
        }
        if std::os::unix::net::UnixStream::connect("ROOT/grader.sock").is_ok() {
            escaped("connected to a UNIX socket file outside its copy");
        }
        {
            use std::os::linux::net::SocketAddrExt;
            let name = std::os::unix::net::SocketAddr::from_abstract_name("ABSTRACT").unwrap();
            if std::os::unix::net::UnixStream::connect_addr(&name).is_ok() {
                escaped("connected to the grader's abstract UNIX socket");
            }
        }
        if std::net::UdpSocket::bind("127.0.0.1:0").and_then(|u| u.send_to(b"x", "127.0.0.1:9")).is_ok() {
            escaped("sent a UDP datagram");
        }
        if socket(2, 3, 1) >= 0 { escaped("opened a raw socket"); }
        for program in ["stockfish", "/usr/games/stockfish", "/usr/games/toga2", "sh", "/bin/sh", "python3"] {
            let started = Command::new(program).stdin(Stdio::null()).stdout(Stdio::null())
                .stderr(Stdio::null()).spawn();
            if let Ok(mut child) = started {
                let _ = child.kill();
                escaped(&format!("ran {program}"));
            }
        }
    });
}
"#;

/// What `PROCESS_PAYLOAD` reaches for outside its copy: a root-owned program (when the test
/// runs as root), a UNIX socket file and an abstract UNIX socket, all the test's own.
pub struct Bait {
    socket_file: std::os::unix::net::UnixListener,
    abstract_socket: std::os::unix::net::UnixListener,
    /// The abstract socket's name, for `ABSTRACT` in the payload.
    pub abstract_name: String,
}

impl Bait {
    /// Lays the bait in `root`, under a name of the test's own (`tag`).
    pub fn lay(root: &std::path::Path, tag: &str) -> Bait {
        use std::os::linux::net::SocketAddrExt;
        use std::os::unix::fs::PermissionsExt;
        use std::os::unix::net::{SocketAddr, UnixListener};
        std::fs::write(root.join("tool"), "#!/bin/sh\n").expect("writable");
        std::fs::set_permissions(root.join("tool"), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        let abstract_name = format!("pinmask-{tag}-{}", std::process::id());
        let name = SocketAddr::from_abstract_name(&abstract_name).expect("an abstract name");
        Bait {
            socket_file: UnixListener::bind(root.join("grader.sock")).expect("a socket file"),
            abstract_socket: UnixListener::bind_addr(&name).expect("an abstract socket"),
            abstract_name,
        }
    }

    /// `PROCESS_PAYLOAD` aimed at `root` and this bait.
    pub fn payload(&self, root: &std::path::Path) -> String {
        PROCESS_PAYLOAD
            .replace("ROOT", &root.display().to_string())
            .replace("ABSTRACT", &self.abstract_name)
    }

    /// Whether anyone connected to either socket.
    pub fn taken(&self) -> bool {
        [&self.socket_file, &self.abstract_socket].iter().any(|l| {
            l.set_nonblocking(true).expect("nonblocking");
            l.accept().is_ok()
        })
    }
}

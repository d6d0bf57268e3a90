//! The sandbox that student code runs in while `course grade` grades it and `course
//! tournament` plays it: the build (rustc reads the student's files, `include_str!` or
//! `#[path]` could read any other, and `build.rs` or a proc-macro runs arbitrary code) and the
//! harness or engine (the student's functions themselves).
//!
//! On Linux, each sandboxed program ([`Sandbox::confine`], [`Sandbox::confine_build`]) gets,
//! from the kernel's namespaces:
//! - **a mount view of its own**: an empty, read-only root holding only its scratch copy
//!   (read-write), the Rust toolchain, the system's libraries (`/usr/lib`, `/lib*`), the
//!   loader's files in `/etc`, four devices (`/dev/null`, `/dev/zero`, `/dev/random`,
//!   `/dev/urandom`) and a `/proc` of its own, all read-only but the copy. No other
//!   program is there: a harness or engine runs nothing but itself, and a build gets the C
//!   compiler driver and the linker (`cc`, `ld`) besides the toolchain. Metadata changes
//!   (`chmod`, `utimes`, `setxattr`) outside the copy fail (a read-only mount), a hard link to a
//!   file outside it fails (another mount), and UNIX socket files outside it are not there;
//! - **a PID namespace**: it sees, signals, `prlimit`s and re-prioritises only its own
//!   processes, never the grader's nor a classmate's; they all end when it does;
//! - **network, IPC and host-name namespaces**: no network at all (not even the loopback, UDP or
//!   raw sockets), no shared memory or abstract UNIX sockets with anyone;
//! - **no root's rights**: when the grader runs as root (a container autograder, CI), the
//!   program runs as the unprivileged user `nobody` (65534), which owns its scratch copy;
//!   otherwise it runs in a user namespace of its own, as the grader's user, with no
//!   capability once it starts. `no_new_privs` is set, so no set-uid program raises it.
//! - **Landlock** where the kernel has it, in depth: TCP bind and connect refused (ABI 4),
//!   signals and abstract UNIX sockets aimed outside refused (ABI 6);
//! - **resource limits**: address space, file size, no core dumps.
//!
//! The grader's child (`course grade-one`, our own code, which reports the grades) enters a
//! view of the same shape before it starts a thread ([`Sandbox::enter`]): whatever a student's
//! build leaves in the copy (a symbolic link to a system file), the child cannot write outside
//! the copy either. It is a child subreaper ([`end_descendants`]), so a process that called
//! `setsid` or double-forked is still its to end. docs/course.md says what this guarantees
//! and what it does not.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Limits on one student's processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SandboxLimits {
    /// Address space of each process running student code, in MiB.
    pub memory_mib: u64,
    /// Address space of each build process (cargo, rustc, the linker), in MiB.
    pub build_memory_mib: u64,
    /// The largest file any of them may write, in MiB.
    pub file_mib: u64,
}

impl Default for SandboxLimits {
    fn default() -> SandboxLimits {
        SandboxLimits {
            memory_mib: 2048,
            build_memory_mib: 8192,
            file_mib: 256,
        }
    }
}

/// What one student's sandbox allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    /// The student's scratch copy: the only folder it may write (its temporary folder is
    /// inside). Its parent is the grader's own folder: the sandbox makes a mount point beside
    /// it (`NAME.root`).
    pub scratch: PathBuf,
    /// Programs it may read and run besides its own: the Rust toolchain's sysroot when
    /// grading, the engine's own folder in a tournament.
    pub toolchain: PathBuf,
    /// The limits.
    pub limits: SandboxLimits,
    /// Programs it may run besides its own and the toolchain's: the interpreter of an engine
    /// that is a script (see [`interpreter`]).
    pub programs: Vec<PathBuf>,
}

/// The interpreter a script names on its `#!` line (`/bin/sh`), which a sandboxed script
/// needs in its view; `None` for a program that is not a script.
pub fn interpreter(program: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(program).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n')?];
    let word = String::from_utf8_lossy(line)
        .split_whitespace()
        .next()?
        .to_string();
    Some(PathBuf::from(word))
}

/// The user that student code runs as when the grader is root: `nobody`.
pub const NOBODY: u32 = 65534;

/// The toolchain a grading run builds with: its sysroot, where `bin/cargo` and `bin/rustc`
/// are. Found once by the grader (`rustc --print sysroot`, with `$RUSTC` if set), so that the
/// sandbox reads that toolchain and no `rustup` state.
pub fn find_toolchain() -> Result<PathBuf, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot run rustc to find the toolchain: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "rustc --print sysroot failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if !sysroot.join("bin").join("cargo").is_file() {
        return Err(format!(
            "the toolchain at {} has no bin/cargo",
            sysroot.display()
        ));
    }
    Ok(sysroot)
}

/// The environment every sandboxed process gets, and nothing else of the grader's: the
/// toolchain and system programs on `PATH`, `HOME` and `TMPDIR` in the scratch copy.
pub fn clean_env(command: &mut Command, scratch: &Path, toolchain: &Path) {
    let tmp = scratch.join("tmp");
    let path = std::env::join_paths([toolchain.join("bin"), "/usr/bin".into(), "/bin".into()])
        .unwrap_or_else(|_| "/usr/bin:/bin".into());
    command
        .env_clear()
        .env("PATH", path)
        .env("HOME", scratch)
        .env("TMPDIR", &tmp)
        .env("CARGO_HOME", scratch.join(".cargo-home"))
        .env("RUSTC", toolchain.join("bin").join("rustc"))
        .env("LANG", "C.UTF-8")
        .current_dir(scratch);
}

/// Whether this kernel can enforce the sandbox; `Err` says why not.
pub fn available() -> Result<(), String> {
    imp::available()
}

/// What a sandboxed program may run besides itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// A harness or an engine: nothing.
    Run,
    /// A build: the toolchain, `cc` and `ld`.
    Build,
    /// The grader's child: what its builds need, and the mount point of nested views.
    Grader,
}

impl Sandbox {
    /// Makes the scratch copy ready: its `tmp` folder, the mount point beside it, and, when
    /// the grader is root, `nobody` as the owner of every file in it. Call it once, before
    /// [`Sandbox::enter`] or the first [`Sandbox::confine`].
    pub fn prepare(&self) -> Result<(), String> {
        imp::prepare(self)
    }

    /// Puts the calling process in a view of its own (see the module's docs): call it before
    /// the process starts any thread. Returns a line saying what is enforced.
    pub fn enter(&self) -> Result<String, String> {
        imp::enter(self)
    }

    /// Makes `command` (a harness or an engine) start in a sandbox of its own with the memory
    /// cap, a clean environment and the scratch copy as its working directory.
    pub fn confine(&self, command: &mut Command) -> Result<(), String> {
        clean_env(command, &self.scratch, &self.toolchain);
        imp::confine(self, command, Purpose::Run)
    }

    /// [`Sandbox::confine`] for a build (cargo, rustc, the linker and the student's build
    /// scripts): the build's memory cap, and `cc` and `ld` in its view.
    pub fn confine_build(&self, command: &mut Command) -> Result<(), String> {
        clean_env(command, &self.scratch, &self.toolchain);
        imp::confine(self, command, Purpose::Build)
    }

    /// The empty folder beside the scratch copy where a view's root is mounted.
    fn mount_point(&self) -> PathBuf {
        let mut name = self.scratch.file_name().unwrap_or_default().to_os_string();
        name.push(".root");
        self.scratch.with_file_name(name)
    }
}

/// Ends every descendant of this process: with the subreaper set by [`Sandbox::enter`],
/// orphans (a `setsid` child, a double fork) are re-parented here, so killing children until
/// none is left ends them all. Returns how many were killed.
pub fn end_descendants() -> usize {
    imp::end_children_but(&std::collections::HashSet::new())
}

/// Ends every child of this process but those in `keep` (and, with the subreaper set, the
/// orphans that come to it as they die): the grader's sweep of what a killed `grade-one` left.
pub fn end_children_but(keep: &std::collections::HashSet<u32>) -> usize {
    imp::end_children_but(keep)
}

/// Makes this process the reaper of its orphaned descendants (Linux), so that
/// [`end_descendants`] or a sweep of its children finds them.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_CHILD_SUBREAPER, 1) sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// The processes whose parent is `parent`, from `/proc`.
pub fn children_of(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| parent_of(pid) == Some(parent))
        .collect()
}

/// The CPU time (user and system) that process `pid` and its living descendants have used,
/// with what their reaped children used, from `/proc`: what a deadline fair under load
/// counts (a student's program on a busy grader gets less of the CPU, not less time).
pub fn cpu_time(pid: u32) -> std::time::Duration {
    let ticks = |pid: u32| -> u64 {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return 0;
        };
        let Some(close) = stat.rfind(')') else {
            return 0;
        };
        // After the command: state (3), ..., utime (14), stime (15), cutime (16), cstime (17).
        stat[close + 1..]
            .split_whitespace()
            .skip(11)
            .take(4)
            .filter_map(|f| f.parse::<u64>().ok())
            .sum()
    };
    let mut total = 0;
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        total += ticks(p);
        todo.extend(children_listed(p).unwrap_or_else(|| children_of(p)));
    }
    #[cfg(unix)]
    // SAFETY: sysconf reads a constant of the system.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    #[cfg(not(unix))]
    let per_second = 100;
    std::time::Duration::from_millis(total * 1000 / per_second)
}

/// A deadline fair under load: `within` of the program's CPU time. Past `within` on the
/// clock, a program that was computing (at least a twentieth of the time) but got less than
/// `within` of the CPU, because the grader is busy, waits for the rest, up to [`WALL_SLACK`]
/// times `within` on the clock; one that spent it all, or sat idle, is out of time. So the
/// same work gets the same verdict on a busy grader as on an idle one.
#[derive(Debug, Clone, Copy)]
pub struct FairDeadline {
    pid: u32,
    cpu_before: std::time::Duration,
    started: std::time::Instant,
    within: std::time::Duration,
}

/// How many times its deadline a starved program may take on the clock.
pub const WALL_SLACK: u32 = 4;

impl FairDeadline {
    /// Starts counting for process `pid` (and its descendants) now.
    pub fn new(pid: u32, within: std::time::Duration) -> FairDeadline {
        FairDeadline {
            pid,
            cpu_before: cpu_time(pid),
            started: std::time::Instant::now(),
            within,
        }
    }

    /// The first wait: `within` on the clock.
    pub fn first(&self) -> std::time::Duration {
        self.within
    }

    /// After a wait ran out: how much longer to wait, or `None` when the time is up.
    pub fn more(&self) -> Option<std::time::Duration> {
        let used = cpu_time(self.pid).saturating_sub(self.cpu_before);
        let elapsed = self.started.elapsed();
        let cap = (self.within * WALL_SLACK).saturating_sub(elapsed);
        let busy = used * 20 >= elapsed.min(self.within);
        if used >= self.within || !busy || cap.is_zero() {
            return None;
        }
        Some((self.within - used).min(cap))
    }
}

/// The process that runs the program `Command` started as `pid`: under the sandbox, `pid`
/// only waits for it (its one child, PID 1 of the program's own namespace).
pub fn program_of(pid: u32) -> u32 {
    match children_listed(pid)
        .unwrap_or_else(|| children_of(pid))
        .as_slice()
    {
        [only] => *only,
        _ => pid,
    }
}

/// The children of `pid` as its threads' `/proc/PID/task/TID/children` files list them (a
/// few small reads, where [`children_of`] reads every process's `stat`); `None` where the
/// kernel has no such files.
fn children_listed(pid: u32) -> Option<Vec<u32>> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut children = Vec::new();
    let mut listed = false;
    for task in tasks.flatten() {
        let Ok(text) = std::fs::read_to_string(task.path().join("children")) else {
            continue;
        };
        listed = true;
        children.extend(
            text.split_whitespace()
                .filter_map(|w| w.parse::<u32>().ok()),
        );
    }
    listed.then_some(children)
}

/// A process's parent, from `/proc/PID/stat` (the field after the command name, which may
/// itself hold spaces and parentheses).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// `path` with `.` and `..` taken out, by its words alone (its folders hold no links).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::from("/");
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(word) => out.push(word),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

#[cfg(target_os = "linux")]
mod imp {
    use std::collections::BTreeSet;
    use std::ffi::CString;
    use std::io;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::process::CommandExt;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use landlock::{
        Access, AccessNet, Ruleset, RulesetAttr, RulesetCreated, RulesetStatus, Scope, ABI,
    };

    use super::{lexical, Purpose, Sandbox, NOBODY};

    const MIB: u64 = 1 << 20;

    /// The namespaces every sandboxed program gets (a user namespace too, unless the grader
    /// is root).
    const NAMESPACES: libc::c_int = libc::CLONE_NEWNS
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS;

    fn cstr(path: impl AsRef<std::ffi::OsStr>) -> io::Result<CString> {
        CString::new(path.as_ref().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path holds a NUL byte"))
    }

    /// The last system call's error, if `result` says it failed.
    fn check(result: libc::c_int) -> io::Result<()> {
        if result < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    }

    fn is_root() -> bool {
        // SAFETY: geteuid only reads this process's credentials.
        unsafe { libc::geteuid() == 0 }
    }

    /// How a path is shown in a view.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum How {
        Read,
        Write,
        Device,
    }

    /// One step of making a view; every path but a bind's source is under the view's root.
    enum Step {
        Dir(CString),
        File(CString),
        Link {
            target: CString,
            at: CString,
        },
        /// Bind `from` on `at`, then remount it with `flags`.
        Bind {
            from: CString,
            at: CString,
            flags: libc::c_ulong,
        },
        /// A `/proc`: a fresh one for the new PID namespace, or the current one bound.
        Proc {
            at: CString,
            fresh: bool,
        },
    }

    /// A mount view, prepared where allocating is safe; [`View::apply`] makes only system
    /// calls, so it may run between fork and exec.
    struct View {
        root: CString,
        steps: Vec<Step>,
        workdir: CString,
    }

    /// A view being planned: what is made so far, so that nothing is made twice and nothing
    /// is made inside a folder already bound from outside.
    struct Plan {
        root: PathBuf,
        steps: Vec<Step>,
        made: BTreeSet<PathBuf>,
        bound: BTreeSet<PathBuf>,
    }

    impl Plan {
        fn under(&self, path: &Path) -> io::Result<CString> {
            cstr(self.root.join(path.strip_prefix("/").unwrap_or(path)))
        }

        fn inside_bound(&self, path: &Path) -> bool {
            path.ancestors().any(|a| self.bound.contains(a))
        }

        /// Makes `path` and its parents folders of the view.
        fn dirs(&mut self, path: &Path) -> io::Result<()> {
            let mut at = PathBuf::from("/");
            for part in path.components().skip(1) {
                at.push(part);
                if self.inside_bound(&at) {
                    return Ok(());
                }
                if self.made.insert(at.clone()) {
                    let dir = self.under(&at)?;
                    self.steps.push(Step::Dir(dir));
                }
            }
            Ok(())
        }

        /// Shows `path` in the view as it is here: each link on the way as a link, the file or
        /// folder it ends at bound from here. A path that does not exist is left out.
        fn expose(&mut self, path: &Path, how: How) -> io::Result<()> {
            self.expose_at(&lexical(path), how, 0)
        }

        fn expose_at(&mut self, path: &Path, how: How, links: u32) -> io::Result<()> {
            let parts: Vec<_> = path.components().skip(1).collect();
            let mut at = PathBuf::from("/");
            for (i, part) in parts.iter().enumerate() {
                at.push(part);
                if self.inside_bound(&at) {
                    return Ok(());
                }
                let meta = match std::fs::symlink_metadata(&at) {
                    Ok(meta) => meta,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                    Err(e) => return Err(e),
                };
                if meta.file_type().is_symlink() {
                    if links > 32 {
                        return Err(io::Error::other(format!(
                            "{}: too many links",
                            path.display()
                        )));
                    }
                    let target = std::fs::read_link(&at)?;
                    let parent = at.parent().unwrap_or(Path::new("/")).to_path_buf();
                    if !self.made.contains(&at) {
                        self.dirs(&parent)?;
                        self.made.insert(at.clone());
                        let link = Step::Link {
                            target: cstr(&target)?,
                            at: self.under(&at)?,
                        };
                        self.steps.push(link);
                    }
                    let mut next = parent.join(target);
                    next.extend(&parts[i + 1..]);
                    return self.expose_at(&lexical(&next), how, links + 1);
                }
                if i + 1 < parts.len() {
                    continue;
                }
                if self.made.contains(&at) && !meta.is_dir() {
                    return Ok(());
                }
                if meta.is_dir() {
                    self.dirs(&at)?;
                } else {
                    self.dirs(&parent_of(&at))?;
                    self.made.insert(at.clone());
                    let file = self.under(&at)?;
                    self.steps.push(Step::File(file));
                }
                let flags = remount_flags(&at, how)?;
                let bind = Step::Bind {
                    from: cstr(&at)?,
                    at: self.under(&at)?,
                    flags,
                };
                self.steps.push(bind);
                self.bound.insert(at.clone());
            }
            Ok(())
        }
    }

    fn parent_of(path: &Path) -> PathBuf {
        path.parent().unwrap_or(Path::new("/")).to_path_buf()
    }

    /// The flags a bind of `path` is remounted with: read-only unless it is the scratch copy,
    /// never set-uid, no devices but the devices, and what the mount it comes from has (a
    /// user namespace may not drop those).
    fn remount_flags(path: &Path, how: How) -> io::Result<libc::c_ulong> {
        let c = cstr(path)?;
        // SAFETY: statvfs writes the struct we pass, of the right type.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        check(unsafe { libc::statvfs(c.as_ptr(), &mut st) })?;
        let had = st.f_flag;
        let mut flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_NOSUID;
        for (st_flag, ms_flag) in [
            (libc::ST_NOEXEC, libc::MS_NOEXEC),
            (libc::ST_NODEV, libc::MS_NODEV),
            (libc::ST_NOATIME, libc::MS_NOATIME),
            (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
            (libc::ST_RELATIME, libc::MS_RELATIME),
            (libc::ST_RDONLY, libc::MS_RDONLY),
        ] {
            if had & st_flag != 0 {
                flags |= ms_flag;
            }
        }
        flags |= match how {
            How::Read => libc::MS_RDONLY | libc::MS_NODEV,
            How::Write => libc::MS_NODEV,
            How::Device => libc::MS_RDONLY | libc::MS_NOEXEC,
        };
        Ok(flags)
    }

    /// The programs a build runs besides the toolchain's: the C compiler driver that links,
    /// and the linker.
    const BUILD_PROGRAMS: [&str; 2] = ["cc", "ld"];

    fn plan(sandbox: &Sandbox, purpose: Purpose, fresh_proc: bool) -> io::Result<View> {
        let root = sandbox.mount_point();
        let mut plan = Plan {
            root: root.clone(),
            steps: Vec::new(),
            made: BTreeSet::new(),
            bound: BTreeSet::new(),
        };
        plan.expose(&sandbox.scratch, How::Write)?;
        let toolchain = &sandbox.toolchain;
        if toolchain == Path::new("/usr") || toolchain == Path::new("/usr/local") {
            // A distribution's toolchain: its own programs, not every program of /usr.
            for program in ["cargo", "rustc", "rustdoc"] {
                plan.expose(&toolchain.join("bin").join(program), How::Read)?;
            }
            plan.expose(&toolchain.join("lib/rustlib"), How::Read)?;
        } else {
            plan.expose(toolchain, How::Read)?;
        }
        for system in [
            "/usr/lib",
            "/usr/lib64",
            "/usr/lib32",
            "/usr/libx32",
            "/usr/libexec",
            "/lib",
            "/lib64",
            "/lib32",
            "/libx32",
            "/etc/ld.so.cache",
            "/etc/ld.so.conf",
            "/etc/ld.so.conf.d",
        ] {
            plan.expose(Path::new(system), How::Read)?;
        }
        for device in ["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"] {
            plan.expose(Path::new(device), How::Device)?;
        }
        if purpose != Purpose::Run {
            for program in BUILD_PROGRAMS {
                for dir in ["/usr/bin", "/bin"] {
                    let path = Path::new(dir).join(program);
                    if std::fs::symlink_metadata(&path).is_ok() {
                        plan.expose(&path, How::Read)?;
                        break;
                    }
                }
            }
        }
        for program in &sandbox.programs {
            plan.expose(program, How::Read)?;
        }
        if purpose == Purpose::Grader {
            // The mount point of the views it makes for its builds and harnesses.
            plan.dirs(&root)?;
        }
        plan.dirs(Path::new("/proc"))?;
        let proc = plan.under(Path::new("/proc"))?;
        plan.steps.push(Step::Proc {
            at: proc,
            fresh: fresh_proc,
        });
        Ok(View {
            root: cstr(&root)?,
            steps: plan.steps,
            workdir: cstr(&sandbox.scratch)?,
        })
    }

    impl View {
        /// Mounts the view and makes it this process's root. System calls only.
        fn apply(&self) -> io::Result<()> {
            let none = std::ptr::null();
            // SAFETY: every pointer is a NUL-terminated string that outlives the call, or null
            // where mount(2) allows it; the calls change only this process's mount namespace.
            unsafe {
                check(libc::mount(
                    none,
                    c"/".as_ptr(),
                    none,
                    libc::MS_REC | libc::MS_PRIVATE,
                    std::ptr::null(),
                ))?;
                check(libc::mount(
                    c"tmpfs".as_ptr(),
                    self.root.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    c"mode=0755,size=1m".as_ptr().cast(),
                ))?;
                for step in &self.steps {
                    match step {
                        Step::Dir(dir) => {
                            if libc::mkdir(dir.as_ptr(), 0o755) < 0
                                && io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST)
                            {
                                return Err(io::Error::last_os_error());
                            }
                        }
                        Step::File(file) => {
                            let fd = libc::open(
                                file.as_ptr(),
                                libc::O_CREAT | libc::O_WRONLY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                                0o644,
                            );
                            check(fd)?;
                            libc::close(fd);
                        }
                        Step::Link { target, at } => {
                            check(libc::symlink(target.as_ptr(), at.as_ptr()))?;
                        }
                        Step::Bind { from, at, flags } => {
                            check(libc::mount(
                                from.as_ptr(),
                                at.as_ptr(),
                                none,
                                libc::MS_BIND,
                                std::ptr::null(),
                            ))?;
                            check(libc::mount(
                                none,
                                at.as_ptr(),
                                none,
                                *flags,
                                std::ptr::null(),
                            ))?;
                        }
                        Step::Proc { at, fresh: true } => {
                            check(libc::mount(
                                c"proc".as_ptr(),
                                at.as_ptr(),
                                c"proc".as_ptr(),
                                libc::MS_NOSUID
                                    | libc::MS_NODEV
                                    | libc::MS_NOEXEC
                                    | libc::MS_RDONLY,
                                std::ptr::null(),
                            ))?;
                        }
                        Step::Proc { at, fresh: false } => {
                            check(libc::mount(
                                c"/proc".as_ptr(),
                                at.as_ptr(),
                                none,
                                libc::MS_BIND | libc::MS_REC,
                                std::ptr::null(),
                            ))?;
                        }
                    }
                }
                // Nothing more is made in the view's own folders: read-only.
                check(libc::mount(
                    none,
                    self.root.as_ptr(),
                    none,
                    libc::MS_BIND
                        | libc::MS_REMOUNT
                        | libc::MS_RDONLY
                        | libc::MS_NOSUID
                        | libc::MS_NODEV,
                    std::ptr::null(),
                ))?;
                check(libc::chdir(self.root.as_ptr()))?;
                check(
                    libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr())
                        as libc::c_int,
                )?;
                check(libc::umount2(c".".as_ptr(), libc::MNT_DETACH))?;
                check(libc::chdir(self.workdir.as_ptr()))?;
            }
            Ok(())
        }
    }

    /// The maps of a user namespace in which the grader's own user and group are themselves,
    /// written by the process that made it.
    struct Maps {
        uid: CString,
        gid: CString,
    }

    impl Maps {
        fn of_this_user() -> io::Result<Maps> {
            // SAFETY: getters of this process's credentials.
            let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
            Ok(Maps {
                uid: CString::new(format!("{uid} {uid} 1"))?,
                gid: CString::new(format!("{gid} {gid} 1"))?,
            })
        }

        /// Enters a new user namespace and the others in `also`, mapped. System calls only.
        fn unshare(&self, also: libc::c_int) -> io::Result<()> {
            // SAFETY: unshare changes this (single-threaded) process's namespaces; the writes
            // go to its own /proc files from NUL-terminated buffers.
            unsafe {
                check(libc::unshare(libc::CLONE_NEWUSER | also))?;
                write_file(c"/proc/self/setgroups", c"deny")?;
                write_file(c"/proc/self/uid_map", &self.uid)?;
                write_file(c"/proc/self/gid_map", &self.gid)?;
            }
            Ok(())
        }
    }

    /// # Safety
    /// System calls only; `path` and `text` are NUL-terminated.
    unsafe fn write_file(path: &std::ffi::CStr, text: &std::ffi::CStr) -> io::Result<()> {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        check(fd)?;
        let bytes = text.to_bytes();
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        libc::close(fd);
        if written as usize == bytes.len() {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
        let limit = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: setrlimit reads the struct we pass and changes only this process's limits.
        check(unsafe { libc::setrlimit(resource, &limit) })
    }

    /// Ends this process as `status` (from waitpid) ended its child. Never returns.
    ///
    /// # Safety
    /// System calls only.
    unsafe fn end_as(status: libc::c_int) -> ! {
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            libc::signal(signal, libc::SIG_DFL);
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal);
        }
        libc::_exit(libc::WEXITSTATUS(status))
    }

    /// In the process `Command` started: forks the program's process into the new PID
    /// namespace, and waits for it, ending as it ends. Returns in the program's process only.
    ///
    /// # Safety
    /// System calls only.
    unsafe fn fork_into_namespace() -> io::Result<()> {
        let pid = libc::fork();
        check(pid)?;
        if pid > 0 {
            // Our copies of the pipes (the one `Command` reads exec errors from included)
            // must not keep them open after the program ends or execs.
            if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) < 0 {
                for fd in 0..1024 {
                    libc::close(fd);
                }
            }
            let mut status = 0;
            loop {
                if libc::waitpid(pid, &mut status, 0) == pid {
                    end_as(status);
                }
                if io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                    libc::_exit(125);
                }
            }
        }
        // The program, PID 1 of its namespace: it and everything it started end with the
        // process that waits for it (which `Command`'s caller kills).
        check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0))?;
        Ok(())
    }

    /// Drops root's rights for `nobody`'s, or does nothing when not root. System calls only.
    fn drop_root(as_root: bool) -> io::Result<()> {
        if as_root {
            // SAFETY: credential calls on this process.
            unsafe {
                check(libc::setgroups(0, std::ptr::null()))?;
                check(libc::setresgid(NOBODY, NOBODY, NOBODY))?;
                check(libc::setresuid(NOBODY, NOBODY, NOBODY))?;
            }
        }
        // SAFETY: sets a flag of this process.
        check(unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) })
    }

    /// Landlock's network and scope rules, in depth where the kernel has them.
    fn landlock_rules() -> Option<RulesetCreated> {
        Ruleset::default()
            .handle_access(AccessNet::from_all(ABI::V6))
            .ok()?
            .scope(Scope::from_all(ABI::V6))
            .ok()?
            .create()
            .ok()
    }

    pub fn available() -> Result<(), String> {
        let maps = Maps::of_this_user().map_err(|e| e.to_string())?;
        let as_root = is_root();
        let mut probe = Command::new("/");
        // SAFETY: the closure makes only system calls and never returns into the child.
        unsafe {
            probe.pre_exec(move || {
                if as_root {
                    check(libc::unshare(NAMESPACES))?;
                } else {
                    maps.unshare(NAMESPACES)?;
                }
                let pid = libc::fork();
                check(pid)?;
                if pid == 0 {
                    let step = if libc::mount(
                        std::ptr::null(),
                        c"/".as_ptr(),
                        std::ptr::null(),
                        libc::MS_REC | libc::MS_PRIVATE,
                        std::ptr::null(),
                    ) < 0
                    {
                        1
                    } else if libc::mount(
                        c"proc".as_ptr(),
                        c"/proc".as_ptr(),
                        c"proc".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        std::ptr::null(),
                    ) < 0
                    {
                        2
                    } else {
                        0
                    };
                    libc::_exit(step);
                }
                let mut status = 0;
                libc::waitpid(pid, &mut status, 0);
                libc::_exit(if libc::WIFEXITED(status) {
                    libc::WEXITSTATUS(status)
                } else {
                    3
                });
            });
        }
        let why = match probe.status() {
            Ok(status) if status.success() => return Ok(()),
            Ok(status) => match status.code() {
                Some(1) => "cannot make a private mount view".to_string(),
                Some(2) => "cannot mount a /proc of its own in a new PID namespace".to_string(),
                _ => format!("the probe ended with {status}"),
            },
            Err(e) => format!(
                "cannot make the namespaces a sandboxed program needs (mount, PID, network{}): {e}",
                if as_root { "" } else { ", user" }
            ),
        };
        Err(format!("this kernel cannot give the sandbox: {why}"))
    }

    pub fn prepare(sandbox: &Sandbox) -> Result<(), String> {
        let fail = |what: &Path, e: io::Error| format!("cannot prepare {}: {e}", what.display());
        std::fs::create_dir_all(sandbox.scratch.join("tmp"))
            .map_err(|e| fail(&sandbox.scratch, e))?;
        let point = sandbox.mount_point();
        match std::fs::symlink_metadata(&point) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Err(format!("{} is not a folder", point.display())),
            Err(_) => std::fs::create_dir(&point).map_err(|e| fail(&point, e))?,
        }
        if is_root() {
            hand_over(&sandbox.scratch).map_err(|e| fail(&sandbox.scratch, e))?;
        }
        Ok(())
    }

    /// Gives `nobody` every file under `dir` (links themselves, not what they point at).
    fn hand_over(dir: &Path) -> io::Result<()> {
        std::os::unix::fs::lchown(dir, Some(NOBODY), Some(NOBODY))?;
        if std::fs::symlink_metadata(dir)?.is_dir() {
            for entry in std::fs::read_dir(dir)? {
                hand_over(&entry?.path())?;
            }
        }
        Ok(())
    }

    pub fn enter(sandbox: &Sandbox) -> Result<String, String> {
        let fail = |e: io::Error| format!("cannot enter the sandbox: {e}");
        let view = plan(sandbox, Purpose::Grader, false).map_err(fail)?;
        let as_root = is_root();
        if as_root {
            // SAFETY: unshare changes only this (single-threaded) process's namespaces.
            check(unsafe { libc::unshare(libc::CLONE_NEWNS) }).map_err(fail)?;
        } else {
            Maps::of_this_user()
                .and_then(|maps| maps.unshare(libc::CLONE_NEWNS))
                .map_err(fail)?;
        }
        view.apply().map_err(fail)?;
        super::become_subreaper();
        let limits = sandbox.limits;
        set_limit(libc::RLIMIT_CORE, 0)
            .and_then(|()| set_limit(libc::RLIMIT_FSIZE, limits.file_mib * MIB))
            .and_then(|()| set_limit(libc::RLIMIT_AS, limits.build_memory_mib * MIB))
            .map_err(|e| format!("cannot set the resource limits: {e}"))?;
        let who = if as_root {
            format!("as nobody (uid {NOBODY})")
        } else {
            // SAFETY: reads this process's credentials.
            format!("as uid {} in a user namespace", unsafe { libc::geteuid() })
        };
        Ok(format!(
            "each build, harness and engine in a mount view of its own (its copy, the \
             toolchain, system libraries) and its own PID, network and IPC namespaces, {who}; \
             {}",
            landlock_words()
        ))
    }

    /// What Landlock adds, in words.
    fn landlock_words() -> String {
        let Some(rules) = landlock_rules() else {
            return "no Landlock".into();
        };
        // Measured in a child, so that this process stays free to make views.
        let mut probe = Command::new("/");
        let mut rules = Some(rules);
        // SAFETY: the closure makes only system calls and never returns into the child.
        unsafe {
            probe.pre_exec(move || {
                let code = match rules.take().map(|r| r.restrict_self()) {
                    Some(Ok(status)) => match status.ruleset {
                        RulesetStatus::FullyEnforced => 0,
                        RulesetStatus::PartiallyEnforced => 1,
                        RulesetStatus::NotEnforced => 2,
                    },
                    _ => 3,
                };
                libc::_exit(code)
            });
        }
        match probe.status().map(|s| s.code()) {
            Ok(Some(0)) => "Landlock: no TCP, no signals or abstract sockets outside".into(),
            Ok(Some(1)) => "Landlock in part (the kernel's ABI is older than 6)".into(),
            _ => "no Landlock in this kernel".into(),
        }
    }

    pub fn confine(
        sandbox: &Sandbox,
        command: &mut Command,
        purpose: Purpose,
    ) -> Result<(), String> {
        // Built here, where allocating is safe; only system calls run in the child.
        let fail = |e: io::Error| format!("cannot prepare the sandbox: {e}");
        let view = plan(sandbox, purpose, true).map_err(fail)?;
        let maps = Maps::of_this_user().map_err(fail)?;
        let as_root = is_root();
        let mut rules = landlock_rules();
        let limits = sandbox.limits;
        let memory = match purpose {
            Purpose::Run => limits.memory_mib,
            Purpose::Build | Purpose::Grader => limits.build_memory_mib,
        } * MIB;
        let file = limits.file_mib * MIB;
        // SAFETY: between fork and exec the closure makes only system calls (setrlimit,
        // unshare, fork, waitpid, mount, setresuid, prctl, landlock_restrict_self) and
        // allocates nothing on success.
        unsafe {
            command.pre_exec(move || {
                set_limit(libc::RLIMIT_CORE, 0)?;
                set_limit(libc::RLIMIT_FSIZE, file)?;
                set_limit(libc::RLIMIT_AS, memory)?;
                if as_root {
                    check(libc::unshare(NAMESPACES))?;
                } else {
                    maps.unshare(NAMESPACES)?;
                }
                fork_into_namespace()?;
                view.apply()?;
                drop_root(as_root)?;
                if let Some(rules) = rules.take() {
                    rules
                        .restrict_self()
                        .map_err(|_| io::Error::from(io::ErrorKind::PermissionDenied))?;
                }
                Ok(())
            });
        }
        Ok(())
    }

    pub fn end_children_but(keep: &std::collections::HashSet<u32>) -> usize {
        let me = std::process::id();
        let mut killed = 0;
        // Each round kills the children there are; their own children are re-parented to
        // us as they die. A process being killed can no longer fork, so rounds run out.
        for _ in 0..10_000 {
            let children: Vec<u32> = super::children_of(me)
                .into_iter()
                .filter(|p| !keep.contains(p))
                .collect();
            if children.is_empty() {
                break;
            }
            for pid in children {
                let Ok(pid) = i32::try_from(pid) else {
                    continue;
                };
                // SAFETY: kill and waitpid on our own child, which no `Child` handle owns
                // (those are in `keep`), and which we then reap.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, std::ptr::null_mut(), 0);
                }
                killed += 1;
            }
        }
        killed
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::process::Command;

    use super::{Purpose, Sandbox};

    const WHY: &str = "the grading sandbox needs Linux (its namespaces); grade in a Linux \
                       container or VM, or pass --no-sandbox to run student code with your own \
                       rights";

    pub fn available() -> Result<(), String> {
        Err(WHY.into())
    }

    pub fn prepare(_: &Sandbox) -> Result<(), String> {
        Err(WHY.into())
    }

    pub fn enter(_: &Sandbox) -> Result<String, String> {
        Err(WHY.into())
    }

    pub fn confine(_: &Sandbox, _: &mut Command, _: Purpose) -> Result<(), String> {
        Err(WHY.into())
    }

    pub fn end_children_but(_: &std::collections::HashSet<u32>) -> usize {
        0
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A sandbox over a fresh scratch copy holding copies of `programs` from /usr/bin.
    fn sandbox_with(name: &str, programs: &[&str]) -> (PathBuf, Sandbox) {
        let dir =
            std::env::temp_dir().join(format!("pinmask-sandbox-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let scratch = dir.join("copy");
        std::fs::create_dir_all(&scratch).expect("writable");
        for program in programs {
            std::fs::copy(Path::new("/usr/bin").join(program), scratch.join(program))
                .expect("a system program to copy");
        }
        let sandbox = Sandbox {
            scratch,
            toolchain: dir.join("no-toolchain"),
            limits: SandboxLimits::default(),
            programs: Vec::new(),
        };
        sandbox.prepare().expect("prepared");
        (dir, sandbox)
    }

    /// What `program ARGS` prints, confined, and whether it succeeded.
    fn run(sandbox: &Sandbox, program: &str, args: &[&str]) -> (bool, String) {
        let mut command = Command::new(sandbox.scratch.join(program));
        sandbox.confine(&mut command).expect("confined");
        let out = command.args(args).output().expect("started");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    #[test]
    fn a_confined_program_sees_its_copy_the_libraries_and_itself_only() {
        available().expect("this kernel gives the sandbox");
        let (dir, sandbox) = sandbox_with("view", &["ls", "cat", "id", "touch"]);
        let names = |path: &str| -> Vec<String> {
            let (ok, out) = run(&sandbox, "ls", &["-a", path]);
            assert!(ok, "ls {path}");
            out.lines()
                .filter(|l| *l != "." && *l != "..")
                .map(str::to_string)
                .collect()
        };
        // The root holds the system's folders that are there, and the copy's first folder.
        let first = sandbox
            .scratch
            .components()
            .nth(1)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .expect("an absolute path");
        for entry in names("/") {
            assert!(
                ["dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "usr"].contains(&&*entry)
                    || entry == first,
                "{entry} is in the view"
            );
        }
        for entry in names("/usr") {
            assert!(entry.starts_with("lib"), "/usr/{entry} is in the view");
        }
        assert_eq!(names("/dev").len(), 4, "{:?}", names("/dev"));
        // No other program, no system file beyond the loader's, no other process.
        assert!(!run(&sandbox, "cat", &["/etc/passwd"]).0);
        assert!(!run(&sandbox, "ls", &["/usr/bin", "/bin"]).0);
        let processes: Vec<String> = names("/proc")
            .into_iter()
            .filter(|n| n.parse::<u32>().is_ok())
            .collect();
        assert_eq!(processes, ["1"], "processes in view");
        // Not root's rights: nobody, or the grader's own user in a namespace of its own.
        let (ok, id) = run(&sandbox, "id", &["-u"]);
        assert!(ok);
        // SAFETY: reads this process's credentials.
        let me = unsafe { libc::geteuid() };
        let expected = if me == 0 { NOBODY } else { me };
        assert_eq!(id.trim(), expected.to_string());
        // Its copy is its own to write; beside it, nothing is.
        let made = sandbox.scratch.join("made");
        assert!(run(&sandbox, "touch", &[&made.to_string_lossy()]).0);
        assert!(made.is_file());
        let beside = dir.join("beside");
        assert!(!run(&sandbox, "touch", &[&beside.to_string_lossy()]).0);
        assert!(!beside.exists());
        std::fs::remove_dir_all(&dir).expect("removable");
    }
}

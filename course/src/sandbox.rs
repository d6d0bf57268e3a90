//! The sandbox that student code runs in while `course grade` grades it: the build (rustc
//! reads the student's files, and `include_str!` or `#[path]` could read any other) and the
//! harness (the student's functions themselves).
//!
//! On Linux, with no privilege needed:
//! - **Landlock** (the `landlock` crate): the process may read and execute only the Rust
//!   toolchain and the system's programs and libraries (`/usr`, `/lib*`, `/bin`, the few
//!   files of `/etc` the dynamic loader reads), and may read and write only its own scratch
//!   copy (which holds its temporary folder). TCP bind and connect are refused (ABI 4), and
//!   so are signals and abstract UNIX sockets aimed outside the sandbox (ABI 6) and UNIX
//!   socket files outside the scratch copy (ABI 9).
//! - **A new user and network namespace** where the kernel allows one: no network at all,
//!   not even UDP or the loopback.
//! - **Resource limits**: address space, file size, no core dumps.
//! - **A child subreaper** ([`end_descendants`]): a process that called `setsid` or
//!   double-forked is still ours to end.
//!
//! The grader's child (`course grade-one`) enters the sandbox before it starts a thread
//! ([`Sandbox::enter`]); each harness it starts runs in a second, nested sandbox
//! ([`Sandbox::confine`]) with the same rules and the memory cap, so that student code
//! cannot reach the process that reports its grades (Landlock forbids tracing, or reading
//! the open files of, a process in an enclosing domain). docs/course.md says what this
//! guarantees and what it does not.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Limits on one student's processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Address space of each process running student code, in MiB.
    pub memory_mib: u64,
    /// Address space of each build process (cargo, rustc, the linker), in MiB.
    pub build_memory_mib: u64,
    /// The largest file any of them may write, in MiB.
    pub file_mib: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
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
    /// inside).
    pub scratch: PathBuf,
    /// Programs it may read and run besides the system's: the Rust toolchain's sysroot when
    /// grading, the engine's own folder in a tournament.
    pub toolchain: PathBuf,
    /// The limits.
    pub limits: Limits,
}

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

impl Sandbox {
    /// Confines the calling process and everything it will start: call it before the process
    /// starts any thread (Landlock restricts the calling thread and what it creates after).
    /// Returns a line saying what is enforced.
    pub fn enter(&self) -> Result<String, String> {
        imp::enter(self)
    }

    /// Makes `command` start in a nested sandbox with the memory cap, a clean environment
    /// and the scratch copy as its working directory.
    pub fn confine(&self, command: &mut Command) -> Result<(), String> {
        clean_env(command, &self.scratch, &self.toolchain);
        imp::confine(self, command)
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

/// A process's parent, from `/proc/PID/stat` (the field after the command name, which may
/// itself hold spaces and parentheses).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(target_os = "linux")]
mod imp {
    use std::io;
    use std::os::unix::process::CommandExt;
    use std::path::PathBuf;
    use std::process::Command;

    use landlock::{
        path_beneath_rules, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset,
        RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope, ABI,
    };

    use super::Sandbox;

    /// The Landlock version whose rights the sandbox asks for (file system, TCP, scopes,
    /// UNIX socket paths); an older kernel enforces what it knows, and [`enter`] says so.
    const WANTED: ABI = ABI::V9;

    pub fn available() -> Result<(), String> {
        Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessFs::from_all(ABI::V1))
            .and_then(|r| r.create())
            .map(|_| ())
            .map_err(|e| format!("this kernel cannot enforce Landlock ({e})"))
    }

    /// The system folders a build and a harness read and execute from.
    fn system_paths(toolchain: &std::path::Path) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = vec![toolchain.to_path_buf()];
        for p in [
            "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin",
        ] {
            paths.push(p.into());
        }
        paths
    }

    fn ruleset(sandbox: &Sandbox) -> Result<RulesetCreated, String> {
        let read = AccessFs::from_read(WANTED);
        let files = ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"];
        let devices = ["/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"];
        let fail = |e: landlock::RulesetError| format!("cannot set up the sandbox: {e}");
        Ruleset::default()
            .handle_access(AccessFs::from_all(WANTED))
            .map_err(fail)?
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(fail)?
            .scope(Scope::from_all(WANTED))
            .map_err(fail)?
            .create()
            .map_err(fail)?
            .add_rules(path_beneath_rules(system_paths(&sandbox.toolchain), read))
            .map_err(fail)?
            .add_rules(path_beneath_rules(files, read))
            .map_err(fail)?
            // /proc: the C library reads /proc/self/maps; other processes' files are
            // guarded by Landlock's own tracing rule.
            .add_rules(path_beneath_rules(["/proc"], AccessFs::from_read(WANTED)))
            .map_err(fail)?
            .add_rules(path_beneath_rules(
                devices,
                AccessFs::from_file(WANTED) & !AccessFs::Execute,
            ))
            .map_err(fail)?
            .add_rules(path_beneath_rules(
                [&sandbox.scratch],
                AccessFs::from_all(WANTED),
            ))
            .map_err(fail)
    }

    fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
        let limit = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: setrlimit reads the struct we pass and changes only this process's limits.
        if unsafe { libc::setrlimit(resource, &limit) } == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    const MIB: u64 = 1 << 20;

    pub fn enter(sandbox: &Sandbox) -> Result<String, String> {
        let mut said = Vec::new();
        // A namespace of our own with no network device but a loopback that is down. It
        // must come first: unshare(CLONE_NEWUSER) refuses a process with threads.
        // SAFETY: unshare changes only this (single-threaded) process's namespaces.
        if unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) } == 0 {
            said.push("no network (own network namespace)".to_string());
        } else {
            said.push(format!(
                "no network namespace ({}): TCP only is refused, by Landlock",
                io::Error::last_os_error()
            ));
        }
        super::become_subreaper();
        let limits = sandbox.limits;
        set_limit(libc::RLIMIT_CORE, 0)
            .and_then(|()| set_limit(libc::RLIMIT_FSIZE, limits.file_mib * MIB))
            .and_then(|()| set_limit(libc::RLIMIT_AS, limits.build_memory_mib * MIB))
            .map_err(|e| format!("cannot set the resource limits: {e}"))?;
        let status = ruleset(sandbox)?
            .restrict_self()
            .map_err(|e| format!("cannot enter the sandbox: {e}"))?;
        match status.ruleset {
            RulesetStatus::FullyEnforced => said.push("Landlock fully enforced".into()),
            RulesetStatus::PartiallyEnforced => said.push(format!(
                "Landlock enforced as far as the kernel knows ({}; TCP rules need ABI 4, \
                 scopes ABI 6, UNIX socket paths ABI 9)",
                landlock_words(&status.landlock)
            )),
            RulesetStatus::NotEnforced => {
                return Err("this kernel does not enforce Landlock".into());
            }
        }
        Ok(said.join("; "))
    }

    /// What the kernel offers of Landlock, in words: `kernel ABI 7` (`kernel ABI 10, used as
    /// 9` where the kernel is newer than the crate).
    fn landlock_words(status: &landlock::LandlockStatus) -> String {
        match status {
            landlock::LandlockStatus::NotEnabled => "Landlock not enabled in this kernel".into(),
            landlock::LandlockStatus::NotImplemented => "no Landlock in this kernel".into(),
            landlock::LandlockStatus::Available {
                effective_abi,
                kernel_abi: Some(kernel),
            } => format!("kernel ABI {kernel}, used as {effective_abi}"),
            landlock::LandlockStatus::Available { effective_abi, .. } => {
                format!("kernel ABI {effective_abi}")
            }
        }
    }

    pub fn confine(sandbox: &Sandbox, command: &mut Command) -> Result<(), String> {
        // Built here, where allocating is safe; only system calls run in the child.
        let mut nested = Some(ruleset(sandbox)?);
        let memory = sandbox.limits.memory_mib * MIB;
        // SAFETY: between fork and exec the closure makes only system calls (setrlimit,
        // landlock_restrict_self, prctl) and allocates nothing on success.
        unsafe {
            command.pre_exec(move || {
                set_limit(libc::RLIMIT_AS, memory)?;
                if let Some(ruleset) = nested.take() {
                    ruleset
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

    use super::Sandbox;

    const WHY: &str = "the grading sandbox needs Linux (Landlock); grade in a Linux container \
                       or VM, or pass --no-sandbox to run student code with your own rights";

    pub fn available() -> Result<(), String> {
        Err(WHY.into())
    }

    pub fn enter(_: &Sandbox) -> Result<String, String> {
        Err(WHY.into())
    }

    pub fn confine(_: &Sandbox, _: &mut Command) -> Result<(), String> {
        Err(WHY.into())
    }

    pub fn end_children_but(_: &std::collections::HashSet<u32>) -> usize {
        0
    }
}

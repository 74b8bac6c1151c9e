//! Helpers shared by the tests that watch overhear from outside while it
//! runs: a viewer in a real pseudo-terminal (the one pty harness: a `vt100`
//! screen, and every raw byte too when started by [`Viewer::recording`]), an
//! inotify recorder, and a writer that rewrites a conversation the way JP
//! does.
//!
//! Each test file uses a different part of it.
use std::collections::HashMap;
use std::ffi::CString;
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

/// The built binary.
pub const OVERHEAR: &str = env!("CARGO_BIN_EXE_overhear");
/// How long to wait for the viewer before failing.
pub const TIMEOUT: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------
// The viewer in a pseudo-terminal.

/// A command running in a pseudo-terminal whose output drives a `vt100`
/// screen, fed on a thread of its own.
pub struct Pty<C: vt100::Callbacks> {
    /// The command.
    pub child: Box<dyn Child + Send + Sync>,
    /// The terminal's side (resize it, or drop it to hang up).
    pub master: Box<dyn MasterPty + Send>,
    /// Where keys are typed.
    pub writer: Box<dyn Write + Send>,
    /// The screen as the command's output left it.
    pub screen: Arc<Mutex<vt100::Parser<C>>>,
}

impl<C: vt100::Callbacks> Pty<C> {
    /// Waits until `pred` holds for the terminal (its screen and the effects
    /// its callbacks recorded); panics with `what` and the screen after
    /// [`TIMEOUT`].
    pub fn wait_until(&self, what: &str, pred: impl Fn(&vt100::Parser<C>) -> bool) {
        let start = Instant::now();
        loop {
            let parser = self.screen.lock().unwrap();
            if pred(&parser) {
                return;
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "timed out waiting for {what}:\n{}",
                parser.screen().contents()
            );
            drop(parser);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Starts `cmd` on a `rows`×`cols` pseudo-terminal whose screen records
/// terminal effects with `callbacks` (`()` for none).
pub fn run_in_pty<C: vt100::Callbacks + Send + 'static>(
    cmd: CommandBuilder,
    rows: u16,
    cols: u16,
    callbacks: C,
) -> Pty<C> {
    run_in_pty_keeping(cmd, rows, cols, callbacks, None)
}

/// Every byte a command wrote to its terminal, and whether the terminal has
/// hung up (no byte will follow).
#[derive(Default)]
struct Recording {
    bytes: Mutex<Vec<u8>>,
    ended: AtomicBool,
}

/// [`run_in_pty`], every byte the command writes also kept in `output` when
/// there is one.
fn run_in_pty_keeping<C: vt100::Callbacks + Send + 'static>(
    cmd: CommandBuilder,
    rows: u16,
    cols: u16,
    callbacks: C,
    output: Option<Arc<Recording>>,
) -> Pty<C> {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let screen = Arc::new(Mutex::new(vt100::Parser::new_with_callbacks(
        std::num::NonZeroU16::new(rows).unwrap(),
        std::num::NonZeroU16::new(cols).unwrap(),
        0,
        callbacks,
    )));
    let mut reader = pty.master.try_clone_reader().unwrap();
    let feed = screen.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            if let Some(output) = &output {
                output.bytes.lock().unwrap().extend_from_slice(&buf[..n]);
            }
            feed.lock().unwrap().process(&buf[..n]);
        }
        if let Some(output) = &output {
            output.ended.store(true, Ordering::SeqCst);
        }
    });
    let writer = pty.master.take_writer().unwrap();
    Pty {
        child,
        master: pty.master,
        writer,
        screen,
    }
}

/// `overhear` running in a pseudo-terminal, its screen kept by `vt100`, and
/// the terminal effects it asked for by `C` when a test records them.
pub struct Viewer<C: vt100::Callbacks = ()> {
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    screen: Arc<Mutex<vt100::Parser<C>>>,
    /// Every byte the viewer wrote, when started by [`Viewer::recording`].
    output: Option<Arc<Recording>>,
}

/// Keeps the machine's user configuration out of a viewer started by a
/// test: none is read, and none is written (`r` and `z` are remembered
/// there, so a key pressed in a viewer on the machine, or in another test,
/// would change what the next one shows). A test that wants one sets both
/// again.
pub fn without_user_config(cmd: &mut CommandBuilder) {
    cmd.env("XDG_CONFIG_HOME", super::NO_USER_CONFIG);
    cmd.env("OVERHEAR_NO_REMEMBER", "1");
    cmd.env_remove("OVERHEAR_CONFIG");
}

impl Viewer {
    /// Runs `overhear ARGS…` in `cwd` on a `rows`×`cols` terminal; `$PAGER`
    /// swallows its input, JP's user data folder is `user_data`.
    pub fn spawn(args: &[&Path], cwd: &Path, user_data: &Path, rows: u16, cols: u16) -> Viewer {
        let mut cmd = Viewer::command(cwd, user_data);
        for arg in args {
            cmd.arg(arg);
        }
        Viewer::start(cmd, rows, cols)
    }

    /// The command [`Viewer::spawn`] runs, without arguments, for a test to
    /// add to: a colour terminal, `$PAGER` swallowing its input, JP's user
    /// data folder `user_data`, working folder `cwd`.
    pub fn command(cwd: &Path, user_data: &Path) -> CommandBuilder {
        let mut cmd = CommandBuilder::new(OVERHEAR);
        cmd.env("TERM", "xterm-256color");
        cmd.env("PAGER", "cat >/dev/null");
        cmd.env("JP_USER_DATA_DIR", user_data);
        cmd.env_remove("NO_COLOR");
        without_user_config(&mut cmd);
        cmd.cwd(cwd);
        cmd
    }

    /// Runs `cmd` on a `rows`×`cols` terminal.
    pub fn start(cmd: CommandBuilder, rows: u16, cols: u16) -> Viewer {
        Viewer::start_keeping(cmd, rows, cols, None)
    }

    /// Runs `cmd` on a `rows`×`cols` terminal and keeps every byte it
    /// writes, for [`Viewer::output`] and [`Viewer::quit_and_output`].
    pub fn recording(cmd: CommandBuilder, rows: u16, cols: u16) -> Viewer {
        Viewer::start_keeping(cmd, rows, cols, Some(Arc::default()))
    }

    fn start_keeping(
        cmd: CommandBuilder,
        rows: u16,
        cols: u16,
        output: Option<Arc<Recording>>,
    ) -> Viewer {
        let Pty {
            child,
            master,
            writer,
            screen,
        } = run_in_pty_keeping(cmd, rows, cols, (), output.clone());
        Viewer {
            child,
            master,
            writer,
            screen,
            output,
        }
    }
}

impl<C: vt100::Callbacks + Send + 'static> Viewer<C> {
    /// Runs `cmd` on a `rows`×`cols` terminal whose effects (title, clipboard,
    /// bell…) `callbacks` records.
    pub fn start_with(cmd: CommandBuilder, rows: u16, cols: u16, callbacks: C) -> Viewer<C> {
        let Pty {
            child,
            master,
            writer,
            screen,
        } = run_in_pty(cmd, rows, cols, callbacks);
        Viewer {
            child,
            master,
            writer,
            screen,
            output: None,
        }
    }

    /// What the callbacks recorded, for `f` to read or take.
    pub fn callbacks<R>(&self, f: impl FnOnce(&mut C) -> R) -> R {
        f(self.screen.lock().unwrap().callbacks_mut())
    }

    /// Quits with `q`, then [`Viewer::output`].
    pub fn quit_and_output(mut self) -> Vec<u8> {
        self.send(b"q");
        self.output()
    }

    /// Waits for the viewer to exit (whatever its status) and its terminal
    /// to hang up, and returns every byte it wrote. Only for a viewer started
    /// by [`Viewer::recording`].
    pub fn output(&mut self) -> Vec<u8> {
        let output = self
            .output
            .clone()
            .expect("the viewer was started by Viewer::recording");
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() || !output.ended.load(Ordering::SeqCst) {
            assert!(start.elapsed() < TIMEOUT, "the viewer did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
        output.bytes.lock().unwrap().clone()
    }

    /// Resizes the terminal (and the screen that reads it). The screen first:
    /// the viewer may answer the resize with a frame before this returns, and
    /// that frame must not be read at the old size.
    pub fn resize(&self, rows: u16, cols: u16) {
        self.screen.lock().unwrap().screen_mut().set_size(
            std::num::NonZeroU16::new(rows).unwrap(),
            std::num::NonZeroU16::new(cols).unwrap(),
        );
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
    }

    /// Whether the terminal is in cooked mode with echo (not raw).
    // The terminal's modes are read with tcgetattr(3), which has no safe wrapper.
    #[allow(unsafe_code)]
    pub fn cooked(&self) -> bool {
        let fd = self.master.as_raw_fd().unwrap();
        // SAFETY: `termios` is plain data filled in by `tcgetattr` on an open fd.
        let mut termios: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is the open pty master and `termios` is ours to fill in.
        assert_eq!(unsafe { libc::tcgetattr(fd, &mut termios) }, 0);
        termios.c_lflag & libc::ICANON != 0 && termios.c_lflag & libc::ECHO != 0
    }

    /// The screen once the last bytes written have been read.
    pub fn settled_screen(&self) -> vt100::Screen {
        std::thread::sleep(Duration::from_millis(200));
        self.screen()
    }

    /// Waits until `pred` holds for the screen; panics with the screen after
    /// `timeout`.
    pub fn wait_until(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&vt100::Screen) -> bool,
    ) -> vt100::Screen {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            if start.elapsed() > timeout {
                panic!(
                    "timed out waiting for {what}; screen:\n{}",
                    screen.contents()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen shows `text`.
    pub fn wait_for_text(&self, text: &str) {
        self.wait_until(text, TIMEOUT, |s| s.contents().contains(text));
    }

    /// The screen now.
    pub fn screen(&self) -> vt100::Screen {
        self.screen.lock().unwrap().screen().clone()
    }

    /// Types `bytes`.
    pub fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }

    /// The viewer's process id.
    pub fn pid(&self) -> u32 {
        self.child.process_id().unwrap()
    }

    /// Types `q` and checks that the viewer exits with status 0.
    pub fn quit(&mut self) {
        self.send(b"q");
        assert_eq!(self.exit_code(), 0, "`q` ends the viewer cleanly");
    }

    /// Waits for the viewer to exit and returns its status.
    pub fn exit_code(&mut self) -> u32 {
        let start = Instant::now();
        while start.elapsed() < TIMEOUT {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.exit_code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.child.kill().unwrap();
        panic!("the viewer did not exit");
    }
}

impl<C: vt100::Callbacks> Drop for Viewer<C> {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The screen's rows as text, trailing blanks trimmed.
pub fn rows(screen: &vt100::Screen) -> Vec<String> {
    let (_, cols) = screen.size();
    screen
        .rows(0, cols.into())
        .map(|row| row.trim_end().to_string())
        .collect()
}

/// The resident memory of process `pid` in KiB (`VmRSS`).
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS in /proc/{pid}/status"))
}

/// Makes `root` a JP workspace (`.jp/.id` as JP writes it, and an empty
/// `.jp/conversations`) and returns its conversations folder.
pub fn jp_workspace(root: &Path) -> PathBuf {
    let conversations = root.join(".jp/conversations");
    std::fs::create_dir_all(&conversations).unwrap();
    std::fs::write(
        root.join(".jp/.id"),
        "DO NOT EDIT THIS FILE! IT IS AUTO-GENERATED BY JP.\notvo8\n",
    )
    .unwrap();
    conversations
}

// ---------------------------------------------------------------------------
// Recording file-system events with inotify.

/// Events that change something: content, metadata, names, existence, or a
/// file opened for writing being closed (`IN_CLOSE_WRITE` is raised for any
/// descriptor opened with write access, written to or not).
pub const CHANGES: u32 = libc::IN_MODIFY
    | libc::IN_ATTRIB
    | libc::IN_CLOSE_WRITE
    | libc::IN_MOVED_FROM
    | libc::IN_MOVED_TO
    | libc::IN_CREATE
    | libc::IN_DELETE
    | libc::IN_DELETE_SELF
    | libc::IN_MOVE_SELF;

/// One inotify event: the path it concerns and its mask.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FsEvent {
    /// The watched folder, joined with the entry name when there is one.
    pub path: PathBuf,
    /// `IN_*` bits.
    pub mask: u32,
}

impl FsEvent {
    /// Whether the event changed something (see [`CHANGES`]).
    pub fn is_change(&self) -> bool {
        self.mask & CHANGES != 0
    }

    /// The event's bits by name, for failure messages.
    pub fn describe(&self) -> String {
        let names = [
            (libc::IN_ACCESS, "ACCESS"),
            (libc::IN_MODIFY, "MODIFY"),
            (libc::IN_ATTRIB, "ATTRIB"),
            (libc::IN_CLOSE_WRITE, "CLOSE_WRITE"),
            (libc::IN_CLOSE_NOWRITE, "CLOSE_NOWRITE"),
            (libc::IN_OPEN, "OPEN"),
            (libc::IN_MOVED_FROM, "MOVED_FROM"),
            (libc::IN_MOVED_TO, "MOVED_TO"),
            (libc::IN_CREATE, "CREATE"),
            (libc::IN_DELETE, "DELETE"),
            (libc::IN_DELETE_SELF, "DELETE_SELF"),
            (libc::IN_MOVE_SELF, "MOVE_SELF"),
            (libc::IN_Q_OVERFLOW, "Q_OVERFLOW"),
            (libc::IN_IGNORED, "IGNORED"),
            (libc::IN_ISDIR, "ISDIR"),
        ];
        let bits: Vec<&str> = names
            .iter()
            .filter(|(bit, _)| self.mask & bit != 0)
            .map(|(_, name)| *name)
            .collect();
        format!("{} {}", bits.join("|"), self.path.display())
    }
}

/// Records every inotify event on a tree of folders (each folder and the
/// entries in it) from a background thread until [`Recorder::stop`].
pub struct Recorder {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Vec<FsEvent>>>,
}

impl Recorder {
    /// Watches every folder under `root` (and `root`) for all events.
    // inotify is watched with bare syscalls: notify coalesces the very events
    // this recorder must see one by one.
    #[allow(unsafe_code)]
    pub fn start(roots: &[&Path]) -> Recorder {
        // SAFETY: plain syscalls; the descriptor is owned by the thread below.
        let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        assert!(
            fd >= 0,
            "inotify_init1: {}",
            std::io::Error::last_os_error()
        );
        let mut folders: HashMap<i32, PathBuf> = HashMap::new();
        for root in roots {
            for folder in folders_under(root) {
                let c = CString::new(folder.as_os_str().as_bytes()).unwrap();
                // SAFETY: `c` is a valid NUL-terminated path.
                let wd = unsafe { libc::inotify_add_watch(fd, c.as_ptr(), libc::IN_ALL_EVENTS) };
                assert!(
                    wd >= 0,
                    "inotify_add_watch {}: {}",
                    folder.display(),
                    std::io::Error::last_os_error()
                );
                folders.insert(wd, folder);
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut events = Vec::new();
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let stopping = flag.load(Ordering::SeqCst);
                let mut pfd = libc::pollfd {
                    fd,
                    events: libc::POLLIN,
                    revents: 0,
                };
                // SAFETY: one valid pollfd.
                unsafe { libc::poll(&mut pfd, 1, 20) };
                loop {
                    // SAFETY: reading into our own buffer.
                    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
                    if n <= 0 {
                        break;
                    }
                    parse_events(&buf[..n as usize], &folders, &mut events);
                }
                if stopping {
                    break;
                }
            }
            // SAFETY: closing the descriptor this thread owns.
            unsafe { libc::close(fd) };
            events
        });
        Recorder {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops recording and returns everything seen, in order. Call it after
    /// the process watched has exited: its last closes are then recorded.
    pub fn stop(mut self) -> Vec<FsEvent> {
        // Let events still in flight arrive.
        std::thread::sleep(Duration::from_millis(100));
        self.stop.store(true, Ordering::SeqCst);
        self.thread.take().unwrap().join().unwrap()
    }
}

fn parse_events(mut bytes: &[u8], folders: &HashMap<i32, PathBuf>, out: &mut Vec<FsEvent>) {
    const HEADER: usize = std::mem::size_of::<libc::inotify_event>();
    while bytes.len() >= HEADER {
        let word = |at: usize| u32::from_ne_bytes(bytes[at..at + 4].try_into().unwrap());
        let wd = word(0) as i32;
        let mask = word(4);
        let len = word(12) as usize;
        let name = &bytes[HEADER..HEADER + len];
        let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
        let folder = folders.get(&wd).cloned().unwrap_or_default();
        let path = if name.is_empty() {
            folder
        } else {
            folder.join(std::ffi::OsStr::from_bytes(name))
        };
        out.push(FsEvent { path, mask });
        bytes = &bytes[HEADER + len..];
    }
}

/// `root` and every folder below it.
pub fn folders_under(root: &Path) -> Vec<PathBuf> {
    let mut found = vec![root.to_path_buf()];
    let mut i = 0;
    while i < found.len() {
        let mut children: Vec<PathBuf> = std::fs::read_dir(&found[i])
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() && !p.is_symlink())
            .collect();
        children.sort();
        found.extend(children);
        i += 1;
    }
    found
}

/// Every file and folder under `root` (and `root`).
pub fn entries_under(root: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for folder in folders_under(root) {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| !p.is_dir())
            .collect();
        files.sort();
        all.push(folder);
        all.extend(files);
    }
    all
}

// ---------------------------------------------------------------------------
// A JP-style writer.

/// Replaces `path` the way JP does: the new bytes go to a temporary file in
/// `staging` (a folder on the same file system, outside what is watched) and
/// are renamed over the target, so a reader never sees a partial file.
pub fn replace(staging: &Path, path: &Path, bytes: &[u8]) {
    let tmp = staging.join("events.json.tmp");
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

//! Progress of a long `engine perft` on stderr: root moves done, nodes so far,
//! elapsed time and an estimate of the time left.
//!
//! The bar appears only when stderr is a terminal and the run has lasted
//! [`DELAY`]; otherwise nothing extra is printed. Results go to stdout as
//! before, printed around the bar so the two never mix on a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a run goes before its bar is shown.
const DELAY: Duration = Duration::from_secs(1);

/// The bar of one perft run, hidden until [`DELAY`] has passed.
pub struct Progress {
    bar: ProgressBar,
    nodes: u64,
    /// Tells the showing thread that the run is over (by being dropped).
    done: Option<Sender<()>>,
    shower: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts timing a run over `root_moves` root moves.
    pub fn start(root_moves: usize) -> Progress {
        let bar =
            ProgressBar::with_draw_target(Some(root_moves as u64), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:20}] {pos}/{len} root moves, {msg} nodes, ETA {eta}",
            )
            .expect("the progress template is valid")
            .progress_chars("=> "),
        );
        bar.set_message("0");
        if !std::io::stderr().is_terminal() {
            return Progress {
                bar,
                nodes: 0,
                done: None,
                shower: None,
            };
        }
        let (done, finished) = mpsc::channel::<()>();
        let shown = bar.clone();
        // Waits for the end of the run; shows the bar if it has not come
        // within the delay. The sender is only ever dropped, so any return
        // before the timeout means the run is over.
        let shower = std::thread::spawn(move || {
            if finished.recv_timeout(DELAY) == Err(RecvTimeoutError::Timeout) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(200));
                let _ = finished.recv();
            }
        });
        Progress {
            bar,
            nodes: 0,
            done: Some(done),
            shower: Some(shower),
        }
    }

    /// Records one finished root move of `nodes` nodes, and prints `line` (the
    /// divide line) on stdout.
    pub fn root_done(&mut self, nodes: u64, line: Option<String>) {
        self.nodes += nodes;
        if let Some(line) = line {
            self.bar.suspend(|| println!("{line}"));
        }
        self.bar.set_message(self.nodes.to_string());
        self.bar.inc(1);
    }

    /// Ends the run: the bar is wiped from the terminal.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        drop(self.done.take());
        if let Some(shower) = self.shower.take() {
            let _ = shower.join();
        }
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

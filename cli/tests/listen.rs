//! Live attach end to end: `cspace listen` receives what `cspace eval` records
//! when run with `CSPACE_LIVE` pointing at it (with or without `--record`).

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, Stdio};

#[test]
fn eval_streams_its_recordings_to_a_listening_cspace() {
    let out = std::env::temp_dir().join(format!("cspace-listen-{}", std::process::id()));
    let mut listener = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .args(["listen", "--addr", "127.0.0.1:0", "--count", "2", "--out"])
        .arg(&out)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start cspace listen");
    let mut lines = BufReader::new(listener.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a first line").expect("utf8");
    let addr = first
        .strip_prefix("listening on ")
        .and_then(|r| r.split(';').next())
        .expect("the address is printed first")
        .to_owned();

    let query = |id: &str| {
        format!(
            r#"{{"id":"{id}","query":"distance","a":{{"shape":{{"type":"box","half_extents":[1,1,1]}},"position":[0,0,0],"rotation":[0,0,0,1]}},"b":{{"shape":{{"type":"sphere","radius":0.5}},"position":[3,0.5,0],"rotation":[0,0,0,1]}}}}"#
        )
    };
    // Without --record: CSPACE_LIVE alone makes eval record and stream.
    let mut eval = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .arg("eval")
        .env("CSPACE_LIVE", &addr)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start cspace eval");
    let mut stdin = eval.stdin.take().expect("stdin");
    writeln!(stdin, "{}\n{}", query("q1"), query("q2")).expect("write queries");
    drop(stdin);
    let answers = eval.wait_with_output().expect("eval finishes");
    assert!(answers.status.success());
    assert_eq!(String::from_utf8_lossy(&answers.stdout).lines().count(), 2);

    // Never hang the test suite: the listener must end within a few seconds.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = listener.try_wait().expect("poll listener") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = listener.kill();
            panic!("cspace listen did not receive two recordings");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(status.success());
    let saved: Vec<String> = lines
        .map_while(Result::ok)
        .filter(|l| l.contains("saved"))
        .collect();
    assert_eq!(saved.len(), 2, "{saved:?}");
    for id in 0..2 {
        let bytes = std::fs::read(out.join(format!("live-{id}.cspace"))).expect("saved recording");
        let decoded = cspace_recorder::decode(&bytes);
        assert_eq!(decoded.error, None);
        assert!(
            decoded
                .events
                .iter()
                .any(|l| matches!(l.event, cspace_recorder::Event::Shapes { .. })),
            "a real GJK recording arrived"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Starts `cspace listen` with `args` and returns it with the address it printed.
fn start_listen(args: &[&str], out: &std::path::Path) -> (std::process::Child, String) {
    let mut listener = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .arg("listen")
        .args(args)
        .arg("--out")
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cspace listen");
    let mut first = String::new();
    BufReader::new(listener.stdout.as_mut().expect("stdout"))
        .read_line(&mut first)
        .expect("a first line");
    let addr = first
        .strip_prefix("listening on ")
        .and_then(|r| r.split(';').next())
        .expect("the address is printed first")
        .to_owned();
    (listener, addr)
}

#[test]
fn listen_warns_when_it_listens_beyond_loopback() {
    let out = std::env::temp_dir().join(format!("cspace-listen-warn-{}", std::process::id()));
    // `--count 0` ends at once: nothing is received, no traffic is sent.
    for (addr, warns) in [("0.0.0.0:0", true), ("127.0.0.1:0", false)] {
        let (listener, _) = start_listen(&["--addr", addr, "--count", "0"], &out);
        let output = listener.wait_with_output().expect("listen ends");
        assert!(output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr.contains("warning") && stderr.contains("anyone"),
            warns,
            "{addr}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Peak resident memory of process `pid` in bytes (Linux).
#[cfg(target_os = "linux")]
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kib << 10
}

#[test]
#[cfg(target_os = "linux")]
fn listen_holds_little_memory_for_a_long_stream_of_tiny_frames() {
    let out = std::env::temp_dir().join(format!("cspace-listen-tiny-{}", std::process::id()));
    // 8 MiB of 3-byte pause frames: 2.8 million events.
    let ((), recording) = cspace_recorder::record(|| {
        for _ in 0..2_800_000 {
            cspace_recorder::pause!("tiny");
        }
    });
    let (mut listener, addr) = start_listen(&["--addr", "127.0.0.1:0", "--count", "2"], &out);
    let mut peer = std::net::TcpStream::connect(&addr).expect("connect");
    peer.write_all(&recording.bytes).expect("send");
    drop(peer);
    let mut lines = BufReader::new(listener.stdout.take().expect("stdout")).lines();
    let saved = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| l.contains("saved"))
        .expect("a saved line");
    // Measured while it still runs (it waits for a second recording).
    let peak = peak_rss(listener.id());
    let _ = listener.kill();
    let _ = listener.wait();
    assert!(saved.contains("2800001 events, 2800000 pauses"), "{saved}");
    let file = std::fs::read(out.join("live-0.cspace")).expect("saved file");
    assert!(file == recording.bytes, "the saved file is the stream");
    // Before streams went to disk, this took ~40 bytes per stream byte (340 MiB).
    assert!(
        peak < 64 << 20,
        "peak resident memory {} MiB for an 8 MiB stream",
        peak >> 20
    );
    let _ = std::fs::remove_dir_all(&out);
}

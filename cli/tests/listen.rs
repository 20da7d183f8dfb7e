//! Live attach end to end: `cspace listen` receives what `cspace eval` records
//! (with `--record`) when run with `CSPACE_LIVE` pointing at it.

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
    let mut eval = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .args(["eval", "--record"])
        .arg(out.join("eval"))
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

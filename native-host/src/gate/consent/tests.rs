//! Consent per program, against a gate whose questions the test reads and answers as the panel would.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::path::PathBuf;

use tokio_util::sync::CancellationToken;
use waymark_protocol::{Answer, ClosedReason, Question, ToExtension};

use super::*;
use crate::browser::Browser;
use crate::mcp::identity::ProgramKey;

fn program(exe: &str) -> Program {
    let name = exe.rsplit('/').next().unwrap().to_owned();
    Program {
        key: ProgramKey::Known {
            exe: PathBuf::from(exe),
            args: vec![],
            user: Some("1000".into()),
        },
        short: name,
        full: exe.to_owned(),
        user: Some("ada".into()),
    }
}

fn client(said: &str, exe: &str) -> Client {
    Client {
        said: said.to_owned(),
        program: program(exe),
    }
}

/// A gate and what it says to the panel.
fn gate() -> (Arc<Gate>, mpsc::Receiver<ToExtension>) {
    let (to_panel, from_gate) = mpsc::channel(32);
    let gate = Gate::new(Browser::new(to_panel.clone()), to_panel);
    (gate, from_gate)
}

async fn question(from_gate: &mut mpsc::Receiver<ToExtension>) -> Question {
    loop {
        match from_gate.recv().await {
            Some(ToExtension::Question(q)) => return q,
            Some(_) => continue,
            None => panic!("no question"),
        }
    }
}

fn admit(gate: &Arc<Gate>, client: &Client) -> tokio::task::JoinHandle<Result<(), ToolResult>> {
    let (gate, client) = (gate.clone(), client.clone());
    tokio::spawn(async move { gate.admit(&client, CancellationToken::new()).await })
}

async fn answer(gate: &Arc<Gate>, question: u64, yes: bool) {
    gate.clone().answer(Answer { question, yes }).await;
}

/// Lets the task that keeps answers see the last one (it runs beside the test).
async fn settled(gate: &Gate) {
    for _ in 0..1_000 {
        let asking = lock(&gate.consents)
            .programs
            .values()
            .any(|entry| entry.state == State::Asking);
        if !asking {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!("the answer was not kept");
}

fn kind(result: Result<(), ToolResult>) -> Option<ErrorKind> {
    result.err().and_then(|refused| refused.kind)
}

#[tokio::test]
async fn consent_is_per_program_and_a_second_program_with_the_same_name_is_asked_anew() {
    let (gate, mut panel) = gate();
    let desktop = client("Claude Desktop", "/usr/bin/claude-desktop");
    let first = admit(&gate, &desktop);
    let q = question(&mut panel).await;
    assert_eq!(
        q.text,
        "Claude Desktop (claude-desktop) wants to use your browser through Waymark. Allow it?"
    );
    let detail = q.detail.unwrap();
    assert!(
        detail.starts_with("Claude Desktop is the program /usr/bin/claude-desktop, run by the user ada."),
        "{detail}"
    );
    answer(&gate, q.id, true).await;
    assert_eq!(first.await.unwrap(), Ok(()));
    assert_eq!(admit(&gate, &desktop).await.unwrap(), Ok(()), "allowed once");

    // Another program calling itself the same is asked about anew, and its no holds for it only.
    let impostor = client("Claude Desktop", "/home/ada/.cache/x/helper");
    let second = admit(&gate, &impostor);
    let q = question(&mut panel).await;
    assert!(q.text.starts_with("Claude Desktop (helper) wants"), "{}", q.text);
    answer(&gate, q.id, false).await;
    let refused = second.await.unwrap().unwrap_err();
    assert_eq!(refused.kind, Some(ErrorKind::NotAllowed));
    assert!(refused.error.unwrap().contains("did not allow Claude Desktop"));
    assert_eq!(
        kind(admit(&gate, &impostor).await.unwrap()),
        Some(ErrorKind::NotAllowed),
        "no again without asking"
    );
    assert_eq!(admit(&gate, &desktop).await.unwrap(), Ok(()));
    // Where two programs give one name, a client's questions about actions name its program.
    assert_eq!(gate.client_label(&desktop), "Claude Desktop (claude-desktop)");
    assert_eq!(gate.client_label(&client("Cursor", "/usr/bin/cursor")), "Cursor");
    assert!(panel.try_recv().is_err(), "nothing else was asked");
}

#[tokio::test]
async fn a_question_that_waits_holds_up_no_other_client() {
    let (gate, mut panel) = gate();
    let desktop = client("Claude Desktop", "/usr/bin/claude-desktop");
    let first = admit(&gate, &desktop);
    answer(&gate, question(&mut panel).await.id, true).await;
    first.await.unwrap().unwrap();

    let cursor = client("Cursor", "/usr/bin/cursor");
    let waiting = admit(&gate, &cursor);
    question(&mut panel).await;
    // While Cursor's question is open: the allowed program goes on, and Cursor's own next call
    // hears at once that the user is being asked.
    let at_once = std::time::Duration::from_millis(500);
    let allowed = tokio::time::timeout(at_once, gate.admit(&desktop, CancellationToken::new())).await;
    assert_eq!(allowed.unwrap(), Ok(()));
    let again = tokio::time::timeout(at_once, gate.admit(&cursor, CancellationToken::new())).await;
    let again = again.unwrap().unwrap_err();
    assert_eq!(again.kind, Some(ErrorKind::AwaitingConsent));
    assert!(
        again
            .error
            .unwrap()
            .contains("being asked in Waymark's side panel whether Cursor"),
        "retryable, and says why"
    );
    waiting.abort();
}

#[tokio::test(start_paused = true)]
async fn a_client_that_gives_up_leaves_its_question_and_a_later_yes_lets_it_in() {
    let (gate, mut panel) = gate();
    let cursor = client("Cursor", "/usr/bin/cursor");
    // Nobody answers within the call's wait: told to try again, well before a 5 s client timeout.
    let started = tokio::time::Instant::now();
    let first = admit(&gate, &cursor);
    let q = question(&mut panel).await;
    assert_eq!(kind(first.await.unwrap()), Some(ErrorKind::AwaitingConsent));
    assert!(started.elapsed() >= ADMIT_WAIT);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    // A call the client cancels is told the same, at once.
    let token = CancellationToken::new();
    token.cancel();
    assert_eq!(
        kind(gate.admit(&cursor, token).await),
        Some(ErrorKind::AwaitingConsent)
    );
    // The question stays; the user's yes, later, lets the next call in.
    tokio::time::sleep(std::time::Duration::from_secs(60)).await;
    assert!(panel.try_recv().is_err(), "not withdrawn: {:?}", panel.try_recv());
    answer(&gate, q.id, true).await;
    settled(&gate).await;
    assert_eq!(gate.admit(&cursor, CancellationToken::new()).await, Ok(()));
}

#[tokio::test(start_paused = true)]
async fn a_question_nobody_answered_is_asked_again() {
    let (gate, mut panel) = gate();
    let cursor = client("Cursor", "/usr/bin/cursor");
    let first = admit(&gate, &cursor);
    let q = question(&mut panel).await;
    first.await.unwrap().unwrap_err();
    // The question expires unanswered: that is no answer, so the next call asks again.
    loop {
        match panel.recv().await {
            Some(ToExtension::QuestionClosed(closed)) => {
                assert_eq!((closed.id, closed.reason), (q.id, ClosedReason::Expired));
                break;
            }
            Some(_) => continue,
            None => panic!("the question did not expire"),
        }
    }
    settled(&gate).await;
    let again = admit(&gate, &cursor);
    let asked = question(&mut panel).await;
    assert_ne!(asked.id, q.id);
    answer(&gate, asked.id, true).await;
    assert_eq!(again.await.unwrap(), Ok(()));
}

#[tokio::test]
async fn a_program_waymark_cannot_identify_is_asked_about_for_its_connection() {
    let (gate, mut panel) = gate();
    let unknown = Client {
        said: "mcp".into(),
        program: Program::unknown(3),
    };
    let first = admit(&gate, &unknown);
    let q = question(&mut panel).await;
    assert_eq!(
        q.text,
        "mcp, a program Waymark cannot identify, wants to use your browser through Waymark. A yes holds for this connection only. Allow it?"
    );
    answer(&gate, q.id, true).await;
    first.await.unwrap().unwrap();
    // Another connection Waymark cannot tell apart is a program of its own.
    let other = Client {
        said: "mcp".into(),
        program: Program::unknown(4),
    };
    let asked = admit(&gate, &other);
    question(&mut panel).await;
    asked.abort();
    assert_eq!(
        gate.client_label(&other),
        "mcp (a program Waymark cannot identify)"
    );
}

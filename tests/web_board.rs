//! The web board's routes over real HTTP (`pbrain-mnk gui`): every route with good and bad
//! requests, the host and origin check, seated engines and their forfeits, and a server
//! that stays up through all of it.

mod web_client;

use serde_json::json;
use web_client::Server;

/// The classroom program, seated as an outside engine.
fn classroom() -> String {
    format!("classroom={} classroom", env!("CARGO_BIN_EXE_pbrain-mnk"))
}

/// A renju position with black to move and a double three on i8 (black g8 h8 i6 i7).
const DOUBLE_THREE: &str = "g8 a1 h8 a3 i6 a5 i7 a7";

#[test]
fn the_page_and_its_files_are_served_with_their_types() {
    let server = Server::start(&[]);
    for (path, kind, holds) in [
        ("/", "text/html", "board.js"),
        ("/board.js", "text/javascript", "/api/think"),
        ("/board.css", "text/css", "#board"),
    ] {
        let reply = server.get(path);
        assert_eq!(reply.status, 200, "{path}");
        assert!(reply.header("content-type").unwrap_or_default().starts_with(kind), "{path}");
        assert!(reply.body.contains(holds), "{path}");
    }
    let missing = server.get("/nothing-here");
    assert_eq!((missing.status, missing.error()), (404, "no such page or route".to_string()));
}

#[test]
fn config_names_the_rules_and_the_engines_given_at_start() {
    let server = Server::start(&["--engine", &classroom()]);
    let config = server.get("/api/config").json();
    assert_eq!(config["engines"], json!(["mnk", "classroom"]));
    assert_eq!(config["rules"], json!(["freestyle", "standard", "renju", "caro", "caro-exact"]));
    assert_eq!(config["max_level"], 100);
}

#[test]
fn positions_report_the_side_to_move_the_result_and_renju_forbidden_points() {
    let server = Server::start(&[]);
    let reply = server
        .post("/api/position", &json!({"size": "20x15", "rule": "freestyle", "moves": "h8 i9"}));
    assert_eq!(reply.status, 200, "{}", reply.body);
    let p = reply.json();
    assert_eq!((p["width"].as_u64(), p["height"].as_u64()), (Some(20), Some(15)));
    assert_eq!((p["to_move"].as_str(), p["result"].as_str()), (Some("black"), Some("ongoing")));
    assert_eq!(p["moves"], json!(["h8", "i9"]));

    let renju = server
        .post("/api/position", &json!({"size": "15", "rule": "renju", "moves": DOUBLE_THREE}));
    assert_eq!(renju.json()["forbidden"], json!(["i8"]));
    let freestyle = server
        .post("/api/position", &json!({"size": "15", "rule": "freestyle", "moves": DOUBLE_THREE}));
    assert_eq!(freestyle.json()["forbidden"], json!([]));

    let five = server.post(
        "/api/position",
        &json!({"size": "15", "rule": "freestyle", "moves": "h8 a1 h9 a2 h10 a3 h11 a4 h12"}),
    );
    assert_eq!(five.json()["result"], "black");
    assert_eq!(five.json()["five"], json!(["h8", "h9", "h10", "h11", "h12"]));
    assert_eq!(renju.json()["five"], json!([]));
}

#[test]
fn bad_positions_are_refused_with_the_reason_and_a_foul_is_named() {
    let server = Server::start(&[]);
    let refused = |body: serde_json::Value| {
        let reply = server.post("/api/position", &body);
        (reply.status, reply.error())
    };
    let foul = format!("{DOUBLE_THREE} i8");
    assert_eq!(
        refused(json!({"size": "15", "rule": "renju", "moves": foul})),
        (422, "i8 is forbidden for black in renju: double three".to_string())
    );
    assert_eq!(
        refused(json!({"size": "15", "rule": "freestyle", "moves": "h8 h8"})),
        (422, "h8 is taken".to_string())
    );
    assert_eq!(
        refused(json!({"size": "9", "rule": "freestyle", "moves": "p16"})),
        (422, "p16 is off the 9x9 board".to_string())
    );
    let (status, error) = refused(json!({"size": "4", "rule": "freestyle"}));
    assert_eq!(status, 400);
    assert!(error.contains('4'), "{error}");
    let (status, error) = refused(json!({"size": "15", "rule": "chess"}));
    assert_eq!((status, error.contains("unknown rule 'chess'")), (400, true), "{error}");
    let (status, error) = refused(json!({"size": "15", "rule": "renju", "moves": "h8 %"}));
    assert_eq!((status, error.starts_with("bad move list")), (400, true), "{error}");
    assert_eq!(refused(json!({"rule": "renju"})).0, 422);
    let not_json =
        server.request("POST", "/api/position", &[("Content-Type", "application/json")], Some("{"));
    assert_eq!(not_json.status, 400);
    let no_type = server.request("POST", "/api/position", &[], Some("{}"));
    assert_eq!(no_type.status, 415);
    // Still serving.
    assert_eq!(server.get("/api/config").status, 200);
}

#[test]
fn mnk_thinks_within_its_limits_and_reports_its_best_lines() {
    let server = Server::start(&[]);
    let reply = server.post(
        "/api/think",
        &json!({"size": "15", "rule": "freestyle", "moves": "h8 i9 h10", "nodes": 20000, "nbest": 3}),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let think = reply.json();
    let chosen = think["move"].as_str().expect("a move");
    let lines = think["analysis"]["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["move"], chosen);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["rank"], i + 1);
        assert_eq!(line["pv"][0], line["move"]);
        let chance = line["win_chance"].as_f64().expect("a chance");
        assert!((0.0..=1.0).contains(&chance));
    }
    // The move is legal: the position after it is accepted.
    let after = format!("h8 i9 h10 {chosen}");
    let next =
        server.post("/api/position", &json!({"size": "15", "rule": "freestyle", "moves": after}));
    assert_eq!(next.json()["to_move"], "black");

    // A proven win is found and scored as one.
    let win = server.post(
        "/api/think",
        &json!({"size": "15", "rule": "freestyle", "moves": "h8 a1 h9 a2 h10 a3 h11", "nodes": 1000}),
    );
    let win = win.json();
    assert!(["h7", "h12"].contains(&win["move"].as_str().unwrap_or_default()), "{win}");
}

#[test]
fn think_refuses_bad_limits_unknown_seats_and_decided_games() {
    let server = Server::start(&[]);
    let refused = |extra: serde_json::Value| {
        let mut body = json!({"size": "15", "rule": "freestyle", "moves": "h8"});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let reply = server.post("/api/think", &body);
        (reply.status, reply.error())
    };
    assert_eq!(refused(json!({"level": 101})), (400, "level must be 0..=100".to_string()));
    assert_eq!(refused(json!({"time_ms": 0})), (400, "time_ms must be 1..=60000".to_string()));
    assert_eq!(refused(json!({"nbest": 0})).0, 400);
    assert_eq!(refused(json!({"nodes": 0})).0, 400);
    assert_eq!(
        refused(json!({"seat": "/bin/sh"})),
        (400, "no engine named \"/bin/sh\" was given at start".to_string())
    );
    assert_eq!(refused(json!({"level": "strong"})).0, 422);
    assert_eq!(
        refused(json!({"moves": "h8 a1 h9 a2 h10 a3 h11 a4 h12"})),
        (422, "the game is over".to_string())
    );
}

#[test]
fn seated_engines_are_refereed_and_a_broken_one_forfeits() {
    let server = Server::start(&["--engine", &classroom(), "--engine", "broken=/bin/false"]);
    let reply = server.post(
        "/api/think",
        &json!({"size": "15", "rule": "renju", "moves": "h8 i9", "seat": "classroom", "time_ms": 2000}),
    );
    let think = reply.json();
    assert_eq!(reply.status, 200, "{think}");
    assert_eq!(think["engine"], "mnk-classroom");
    assert!(think["forfeit"].is_null(), "{think}");
    let after = format!("h8 i9 {}", think["move"].as_str().expect("a move"));
    let next =
        server.post("/api/position", &json!({"size": "15", "rule": "renju", "moves": after}));
    assert_eq!(next.status, 200, "{}", next.body);
    // The same engine again, on another board: restarted for it.
    let again = server.post(
        "/api/think",
        &json!({"size": "9", "rule": "freestyle", "moves": "", "seat": "classroom", "time_ms": 2000}),
    );
    assert!(again.json()["move"].is_string(), "{}", again.body);

    let broken = server.post(
        "/api/think",
        &json!({"size": "15", "rule": "freestyle", "moves": "", "seat": "broken"}),
    );
    let broken = broken.json();
    assert!(broken["move"].is_null());
    assert!(broken["forfeit"].as_str().unwrap_or_default().starts_with("start-up"), "{broken}");
}

#[test]
fn games_load_from_sgf_and_psq_and_save_to_both() {
    let server = Server::start(&[]);
    let sgf = "(;GM[4]FF[4]SZ[15]RU[renju]PB[a]PW[b];B[hh];W[ii];B[hi])";
    let loaded = server.post("/api/load", &json!({"text": sgf}));
    let loaded = loaded.json();
    assert_eq!(loaded["position"]["rule"], "renju");
    assert_eq!(loaded["position"]["moves"], json!(["h8", "i9", "h9"]));
    assert_eq!(loaded["names"], json!(["a", "b"]));

    let psq = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,15\nx\ny\n";
    let loaded = server.post("/api/load", &json!({"text": psq, "rule": "standard"})).json();
    assert_eq!(loaded["position"]["size"], "20");
    assert_eq!(loaded["position"]["rule"], "standard");
    assert_eq!(loaded["position"]["moves"], json!(["j10", "k11"]));

    let bad = server.post("/api/load", &json!({"text": "hello"}));
    assert_eq!(bad.status, 400);
    assert!(bad.error().starts_with("not a game file"), "{}", bad.body);
    let twice = server.post("/api/load", &json!({"text": "(;SZ[15];B[hh];W[hh])"}));
    assert_eq!((twice.status, twice.error()), (422, "h8 is taken".to_string()));

    let saved = server.post(
        "/api/save",
        &json!({"size": "15", "rule": "renju", "moves": "h8 i9", "format": "sgf", "names": ["me", "mnk"]}),
    );
    let saved = saved.json();
    assert_eq!(saved["text"], "(;GM[4]FF[4]SZ[15]RU[renju]PB[me]PW[mnk];B[hh];W[ii])\n");
    assert_eq!(saved["filename"], "mnk-renju-2.sgf");
    let psq = server
        .post(
            "/api/save",
            &json!({"size": "15", "rule": "renju", "moves": "h8 i9", "format": "psq"}),
        )
        .json();
    assert!(psq["text"].as_str().unwrap_or_default().starts_with("Piskvorky 15x15"));
    let bad = server.post("/api/save", &json!({"size": "15", "rule": "renju", "format": "doc"}));
    assert_eq!((bad.status, bad.error()), (400, "format \"doc\": sgf or psq".to_string()));
}

#[test]
fn requests_from_other_sites_or_hosts_are_refused() {
    let server = Server::start(&["--engine", &classroom()]);
    let foreign_host = web_client::request(
        &server.address,
        "GET",
        "/api/config",
        &[("Host", "evil.example")],
        None,
    );
    assert_eq!(foreign_host.status, 403);
    assert!(foreign_host.error().contains("not this server"));
    let rebinding = web_client::request(
        &server.address,
        "GET",
        "/",
        &[("Host", &format!("rebind.example:{}", server.address.split(':').nth(1).unwrap()))],
        None,
    );
    assert_eq!(rebinding.status, 403);
    let cross_site = server.request(
        "POST",
        "/api/think",
        &[("Content-Type", "application/json"), ("Origin", "http://evil.example")],
        Some(r#"{"size":"15","rule":"freestyle","seat":"classroom"}"#),
    );
    assert_eq!(cross_site.status, 403);
    let origin = server.url();
    let same_site = server.request(
        "POST",
        "/api/position",
        &[("Content-Type", "application/json"), ("Origin", &origin)],
        Some(r#"{"size":"15","rule":"freestyle"}"#),
    );
    assert_eq!(same_site.status, 200, "{}", same_site.body);
}

#[test]
fn bad_gui_options_exit_with_code_2() {
    for args in [
        &["gui", "--engine", "noequals"][..],
        &["gui", "--engine", "mnk=./x"],
        &["gui", "--engine", "a b=./x"],
        &["gui", "--engine", "a=./x", "--engine", "a=./y"],
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
            .args(args)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("--engine"), "{args:?}");
    }
    // A port in use.
    let server = Server::start(&[]);
    let port = server.address.split(':').nth(1).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
        .args(["gui", "--port", port])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains(&format!("--port {port}")));
}

#[test]
fn progress_shows_the_search_under_way_and_then_its_end() {
    let server = std::sync::Arc::new(Server::start(&[]));
    assert_eq!(server.get("/api/progress").json(), json!({"progress": null}));
    let thinking = {
        let server = server.clone();
        std::thread::spawn(move || {
            server.post(
                "/api/think",
                &json!({"size": "15", "rule": "freestyle", "moves": "h8 i9", "time_ms": 1500}),
            )
        })
    };
    // An iteration completed while the search still runs.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let progress = server.get("/api/progress").json()["progress"].clone();
        if progress["done"] == false && progress["depth"].as_u64() >= Some(1) {
            assert_eq!(progress["moves"], "h8 i9");
            assert!(progress["pv"][0].is_string(), "{progress}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no progress seen: {progress}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let reply = thinking.join().unwrap().json();
    let progress = server.get("/api/progress").json()["progress"].clone();
    assert_eq!(progress["done"], true);
    assert_eq!(progress["pv"][0], reply["move"], "{progress} {reply}");
}

#[test]
fn a_queued_search_gets_its_whole_time_and_stop_ends_a_search_with_its_best_move() {
    let server = std::sync::Arc::new(Server::start(&[]));
    let think = |moves: &'static str, time_ms: u64| {
        let server = server.clone();
        std::thread::spawn(move || {
            server.post(
                "/api/think",
                &json!({"size": "15", "rule": "freestyle", "moves": moves, "time_ms": time_ms}),
            )
        })
    };
    // Two searches of 1,000 ms sent at once: the second waits for the engine, then searches
    // for its own time, not what is left of it.
    let (first, second) = (think("h8 i9", 1000), think("h8 i9 h10", 1000));
    for reply in [first.join().unwrap(), second.join().unwrap()] {
        let reply = reply.json();
        assert!(reply["time_ms"].as_u64() >= Some(500), "{reply}");
        assert_eq!(reply["stopped"], false);
        assert!(reply["analysis"]["depth"].as_u64() >= Some(4), "{reply}");
    }

    // A long search, stopped once it has completed an iteration, answers its best move.
    assert_eq!(server.post("/api/stop", &json!({})).json(), json!({"stopped": 0}));
    let long = think("h8 i9", 60_000);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    // (The progress of this search, not the last one's, which stays shown after it ended.)
    let under_way = |p: &serde_json::Value| {
        p["moves"] == "h8 i9" && p["done"] == false && p["depth"].as_u64() >= Some(2)
    };
    while !under_way(&server.get("/api/progress").json()["progress"]) {
        assert!(std::time::Instant::now() < deadline, "no progress seen");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let asked = std::time::Instant::now();
    assert_eq!(server.post("/api/stop", &json!({})).json(), json!({"stopped": 1}));
    let reply = long.join().unwrap().json();
    assert!(asked.elapsed() < std::time::Duration::from_secs(5), "{:?}", asked.elapsed());
    assert_eq!(reply["stopped"], true, "{reply}");
    let after = format!("h8 i9 {}", reply["move"].as_str().expect("a move"));
    let next =
        server.post("/api/position", &json!({"size": "15", "rule": "freestyle", "moves": after}));
    assert_eq!(next.status, 200, "{}", next.body);
}

/// Ctrl-C during a long search stops it and the server at once (it once waited silently
/// for the search to run out its time).
#[test]
fn ctrl_c_stops_a_search_under_way_and_the_server() {
    let mut server = Server::start(&[]);
    let address = server.address.clone();
    let thinking = std::thread::spawn(move || {
        let body = json!({"size": "15", "rule": "freestyle", "moves": "h8", "time_ms": 60_000});
        let body = body.to_string();
        let headers = [("Host", address.as_str()), ("Content-Type", "application/json")];
        web_client::request(&address, "POST", "/api/think", &headers, Some(&body))
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while server.get("/api/progress").json()["progress"]["depth"].as_u64() < Some(1) {
        assert!(std::time::Instant::now() < deadline, "no progress seen");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = server.interrupt(std::time::Duration::from_secs(5));
    assert!(status.is_some(), "the server still runs 5 s after Ctrl-C");
    // The search answered its best move before the server closed.
    let reply = thinking.join().unwrap();
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.json()["stopped"], true);
}

/// The same position searched again finds its table warm; its lines still reach past the
/// table's cutoffs (they were once cut to one move: lengths [1, 10, 1]).
#[test]
fn lines_searched_again_on_a_warm_table_stay_whole() {
    let server = Server::start(&[]);
    for _ in 0..3 {
        let reply = server.post(
            "/api/think",
            &json!({"size": "15", "rule": "freestyle", "moves": "h8 i9 g7", "time_ms": 200, "nbest": 3}),
        );
        let think = reply.json();
        let lines = think["analysis"]["lines"].as_array().expect("lines").clone();
        assert_eq!(lines.len(), 3, "{think}");
        for line in lines {
            assert!(line["pv"].as_array().unwrap().len() >= 3, "{line}");
        }
    }
}

#[test]
fn every_answer_forbids_framing_and_wrong_methods_say_why() {
    let server = Server::start(&[]);
    for reply in [server.get("/"), server.get("/api/config"), server.get("/nothing-here")] {
        assert_eq!(reply.header("x-frame-options"), Some("DENY"));
        assert_eq!(reply.header("content-security-policy"), Some("frame-ancestors 'none'"));
    }
    let refused =
        web_client::request(&server.address, "GET", "/", &[("Host", "evil.example")], None);
    assert_eq!((refused.status, refused.header("x-frame-options")), (403, Some("DENY")));
    let wrong = server.get("/api/think");
    assert_eq!(
        (wrong.status, wrong.error()),
        (405, "this route does not take that method".to_string())
    );
    let tic_tac_toe = server.post("/api/position", &json!({"size": "3", "rule": "renju"}));
    assert_eq!(
        (tic_tac_toe.status, tic_tac_toe.error()),
        (400, "3x3 is three in a row: rule freestyle only, not renju".to_string())
    );
}

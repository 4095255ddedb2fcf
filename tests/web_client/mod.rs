//! A web board started for a test (`pbrain-mnk gui --port 0`), and a small HTTP/1.1 client
//! that can send what browsers would not (a foreign `Host`, a bad body), so the tests see the
//! server's answers exactly.

#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `pbrain-mnk gui`, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Server {
    /// Starts the board with `args` after `gui --port 0` and waits for its address.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
            .args(["gui", "--port", "0", "--hash-mb", "16"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .env_remove("RUST_LOG")
            .spawn()
            .expect("pbrain-mnk starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("the server prints its address");
        let address = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line {line:?}"))
            .to_string();
        Server { child, address }
    }

    /// Sends Ctrl-C (SIGINT) and waits up to `within` for the server to exit; its exit
    /// status, `None` if it is still running.
    pub fn interrupt(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-INT", &pid]).status().expect("kill runs");
        assert!(sent.success());
        let deadline = std::time::Instant::now() + within;
        while std::time::Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("the server's status") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// A request with this server's `Host` and the `extra` headers.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        extra: &[(&str, &str)],
        body: Option<&str>,
    ) -> Reply {
        let mut headers = vec![("Host", self.address.as_str())];
        headers.extend_from_slice(extra);
        request(&self.address, method, path, &headers, body)
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, &[], None)
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, json: &serde_json::Value) -> Reply {
        self.request("POST", path, &[("Content-Type", "application/json")], Some(&json.to_string()))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

impl Reply {
    /// The header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    /// The `error` of a JSON refusal.
    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_else(|| panic!("no error: {}", self.body)).into()
    }
}

/// One HTTP/1.1 request to `address` (`Connection: close`), with exactly `headers`.
pub fn request(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Reply {
    let mut stream = TcpStream::connect(address).expect("the server listens");
    stream.set_read_timeout(Some(Duration::from_secs(120))).expect("timeout");
    let mut text = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.unwrap_or_default();
    text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(text.as_bytes()).expect("the request is sent");
    // Read the head, then the body by its length (some servers keep the connection open).
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).expect("an answer") == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length = headers.iter().find(|(n, _)| n == "content-length").map(|(_, v)| v.parse());
    let mut raw = Vec::new();
    match length {
        Some(length) => {
            raw.resize(length.expect("a length"), 0);
            reader.read_exact(&mut raw).expect("the body");
        }
        None => {
            reader.read_to_end(&mut raw).expect("the body");
        }
    }
    let rest = String::from_utf8(raw).expect("UTF-8 body");
    let chunked = headers.iter().any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { dechunk(&rest) } else { rest };
    Reply { status, headers, body }
}

/// The body of a chunked answer.
fn dechunk(mut text: &str) -> String {
    let mut body = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).expect("chunk size");
        if size == 0 {
            break;
        }
        body.push_str(&rest[..size]);
        text = &rest[size + 2..];
    }
    body
}

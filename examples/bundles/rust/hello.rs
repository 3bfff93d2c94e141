// hello: a tools bundle in Rust, standard library only (no crates): an MCP server over stdio, one JSON-RPC 2.0
// message a line.
//
//     rustc -O -o hello hello.rs
//     hello {name}   "Hello, <name>! (from Rust)"
//
// It carries its own small JSON reader and writer. A line that is not JSON is skipped (reported on stderr);
// at end of input it exits 0.
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

#[derive(Clone, Debug)]
enum Json {
    Null,
    Bool(bool),
    Num(String), // kept as written, so ids come back exactly
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(map) => map.get(key),
            _ => None,
        }
    }
    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => out.push_str(n),
            Json::Str(s) => {
                out.push('"');
                for c in s.chars() {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        '\n' => out.push_str("\\n"),
                        '\r' => out.push_str("\\r"),
                        '\t' => out.push_str("\\t"),
                        c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            Json::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Obj(map) => {
                out.push('{');
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    Json::Str(k.clone()).write(out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && b" \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.i < self.s.len() && self.s[self.i] == c {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at {}", c as char, self.i))
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i) {
            None => Err("unexpected end".into()),
            Some(b'{') => {
                self.i += 1;
                let mut map = BTreeMap::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(map));
                }
                loop {
                    self.ws();
                    let key = match self.value()? {
                        Json::Str(k) => k,
                        _ => return Err("object key must be a string".into()),
                    };
                    self.eat(b':')?;
                    let v = self.value()?;
                    map.insert(key, v);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(map));
                        }
                        _ => return Err("expected ',' or '}'".into()),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return Err("expected ',' or ']'".into()),
                    }
                }
            }
            Some(b'"') => {
                self.i += 1;
                let mut out: Vec<u8> = Vec::new();
                loop {
                    let c = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    match c {
                        b'"' => break,
                        b'\\' => {
                            let e = *self.s.get(self.i).ok_or("bad escape")?;
                            self.i += 1;
                            let ch = match e {
                                b'n' => '\n',
                                b't' => '\t',
                                b'r' => '\r',
                                b'b' => '\u{8}',
                                b'f' => '\u{c}',
                                b'u' => {
                                    let mut cp = self.hex4()?;
                                    if (0xd800..0xdc00).contains(&cp) && self.s.get(self.i) == Some(&b'\\') {
                                        self.i += 2;
                                        let low = self.hex4()?;
                                        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                                    }
                                    char::from_u32(cp).unwrap_or('\u{fffd}')
                                }
                                other => other as char,
                            };
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => out.push(c),
                    }
                }
                String::from_utf8(out).map(Json::Str).map_err(|_| "invalid UTF-8".into())
            }
            Some(_) => {
                let start = self.i;
                while self.i < self.s.len() && !b",}] \t\r\n".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                match &self.s[start..self.i] {
                    b"null" => Ok(Json::Null),
                    b"true" => Ok(Json::Bool(true)),
                    b"false" => Ok(Json::Bool(false)),
                    word if !word.is_empty() && word.iter().all(|b| b"0123456789+-.eE".contains(b)) => {
                        Ok(Json::Num(String::from_utf8_lossy(word).into_owned()))
                    }
                    _ => Err(format!("unexpected token at {}", start)),
                }
            }
        }
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.s.get(self.i..self.i + 4).ok_or("short \\u escape")?;
        self.i += 4;
        u32::from_str_radix(std::str::from_utf8(digits).map_err(|_| "bad \\u")?, 16).map_err(|_| "bad \\u".into())
    }
}

fn parse(line: &[u8]) -> Result<Json, String> {
    let mut p = Parser { s: line, i: 0 };
    let v = p.value()?;
    p.ws();
    if p.i != line.len() {
        return Err("trailing characters".into());
    }
    Ok(v)
}

fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn text_result(text: String, is_error: bool) -> Json {
    let mut pairs = vec![("content", Json::Arr(vec![obj(vec![("type", Json::Str("text".into())), ("text", Json::Str(text))])]))];
    if is_error {
        pairs.push(("isError", Json::Bool(true)));
    }
    obj(pairs)
}

fn answer(method: &str, params: Option<&Json>) -> Result<Json, (i32, String)> {
    match method {
        "initialize" => {
            let asked = params.and_then(|p| p.get("protocolVersion")).and_then(Json::as_str).unwrap_or("");
            let version = if ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"].contains(&asked) { asked } else { "2025-06-18" };
            Ok(obj(vec![
                ("protocolVersion", Json::Str(version.into())),
                ("capabilities", obj(vec![("tools", obj(vec![]))])),
                ("serverInfo", obj(vec![("name", Json::Str("hello-rust".into())), ("version", Json::Str("1.0.0".into()))])),
            ]))
        }
        "ping" => Ok(obj(vec![])),
        "tools/list" => Ok(obj(vec![("tools", Json::Arr(vec![obj(vec![
            ("name", Json::Str("hello".into())),
            ("description", Json::Str("Greets someone by name (Rust).".into())),
            ("inputSchema", obj(vec![
                ("type", Json::Str("object".into())),
                ("properties", obj(vec![("name", obj(vec![("type", Json::Str("string".into()))]))])),
                ("required", Json::Arr(vec![Json::Str("name".into())])),
            ])),
        ])]))])),
        "tools/call" => {
            let tool = params.and_then(|p| p.get("name")).and_then(Json::as_str).unwrap_or("");
            if tool != "hello" {
                return Err((-32602, format!("Unknown tool: {}", tool)));
            }
            match params.and_then(|p| p.get("arguments")).and_then(|a| a.get("name")).and_then(Json::as_str) {
                Some(name) => Ok(text_result(format!("Hello, {}! (from Rust)", name), false)),
                None => Ok(text_result("'name' must be a string".into(), true)),
            }
        }
        other => Err((-32601, format!("Method not found: {}", other))),
    }
}

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("hello: stdin: {}", e);
                break;
            }
        }
        while line.last().map_or(false, |b| *b == b'\n' || *b == b'\r') {
            line.pop();
        }
        if line.is_empty() {
            continue;
        }
        let message = match parse(&line) {
            Ok(m @ Json::Obj(_)) => m,
            _ => {
                eprintln!("hello: skipped an input line that is not a JSON object");
                continue;
            }
        };
        let (id, method) = match (message.get("id"), message.get("method").and_then(Json::as_str)) {
            (Some(id), Some(method)) => (id.clone(), method.to_string()),
            _ => continue, // a notification or a response
        };
        let mut pairs = vec![("jsonrpc", Json::Str("2.0".into())), ("id", id)];
        match answer(&method, message.get("params")) {
            Ok(result) => pairs.push(("result", result)),
            Err((code, text)) => pairs.push(("error", obj(vec![("code", Json::Num(code.to_string())), ("message", Json::Str(text))]))),
        }
        let mut text = String::new();
        obj(pairs).write(&mut text);
        text.push('\n');
        let mut out = stdout.lock();
        if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}

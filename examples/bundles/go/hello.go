// hello: a tools bundle in Go, standard library only: an MCP server over stdio (one JSON-RPC 2.0 message a line).
//
//	go build -o hello hello.go
//	hello {name}   "Hello, <name>! (from Go)"
//
// Calls run in their own goroutines; one mutex keeps each answer on its own line. A line that is not JSON is
// skipped (reported on stderr). At end of input the calls in flight are answered, then it exits 0.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

var (
	out     = bufio.NewWriter(os.Stdout)
	outLock sync.Mutex
)

func send(message map[string]interface{}) {
	data, err := json.Marshal(message)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hello: cannot encode an answer:", err)
		return
	}
	outLock.Lock()
	defer outLock.Unlock()
	out.Write(data)
	out.WriteByte('\n')
	out.Flush()
}

func reply(id json.RawMessage, result interface{}) {
	send(map[string]interface{}{"jsonrpc": "2.0", "id": id, "result": result})
}

func fail(id json.RawMessage, code int, message string) {
	send(map[string]interface{}{"jsonrpc": "2.0", "id": id, "error": map[string]interface{}{"code": code, "message": message}})
}

var tools = []map[string]interface{}{{
	"name":        "hello",
	"description": "Greets someone by name (Go).",
	"inputSchema": map[string]interface{}{
		"type":       "object",
		"properties": map[string]interface{}{"name": map[string]interface{}{"type": "string"}},
		"required":   []string{"name"},
	},
}}

func call(id json.RawMessage, params json.RawMessage) {
	var p struct {
		Name      string                 `json:"name"`
		Arguments map[string]interface{} `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		fail(id, -32602, "invalid params: "+err.Error())
		return
	}
	if p.Name != "hello" {
		fail(id, -32602, "Unknown tool: "+p.Name)
		return
	}
	name, ok := p.Arguments["name"].(string)
	if !ok {
		reply(id, map[string]interface{}{"content": []interface{}{map[string]interface{}{"type": "text", "text": "'name' must be a string"}}, "isError": true})
		return
	}
	reply(id, map[string]interface{}{"content": []interface{}{map[string]interface{}{"type": "text", "text": "Hello, " + name + "! (from Go)"}}})
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var calls sync.WaitGroup
	for in.Scan() {
		line := in.Bytes()
		if len(line) == 0 {
			continue
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			fmt.Fprintln(os.Stderr, "hello: skipped an input line that is not a JSON object")
			continue
		}
		if req.Method == nil || len(req.ID) == 0 {
			continue // a response or a notification: nothing to answer
		}
		id := json.RawMessage(append([]byte(nil), req.ID...))
		switch *req.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			json.Unmarshal(req.Params, &p)
			version := "2025-06-18"
			switch p.ProtocolVersion {
			case "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05":
				version = p.ProtocolVersion
			}
			reply(id, map[string]interface{}{"protocolVersion": version, "capabilities": map[string]interface{}{"tools": map[string]interface{}{}},
				"serverInfo": map[string]interface{}{"name": "hello-go", "version": "1.0.0"}})
		case "ping":
			reply(id, map[string]interface{}{})
		case "tools/list":
			reply(id, map[string]interface{}{"tools": tools})
		case "tools/call":
			params := json.RawMessage(append([]byte(nil), req.Params...))
			calls.Add(1)
			go func() {
				defer calls.Done()
				call(id, params)
			}()
		default:
			fail(id, -32601, "Method not found: "+*req.Method)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "hello: stdin:", err)
	}
	calls.Wait()
}

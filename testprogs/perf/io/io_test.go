package io

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// TestHTTPHandler starts an httptest server whose handler takes an
// instrumented mutex and makes three requests.
func TestHTTPHandler(t *testing.T) {
	c := &Counter{}
	srv := httptest.NewServer(c)
	defer srv.Close()
	for i := 1; i <= 3; i++ {
		resp, err := http.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(body), fmt.Sprint(i); got != want {
			t.Fatalf("response %d: %q, want %q", i, got, want)
		}
	}
	if n := c.Count(); n != 3 {
		t.Errorf("served %d requests, want 3", n)
	}
}

// TestTempFiles has two goroutines each write a file and read the other's.
func TestTempFiles(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	written := make(chan string, 2)
	errs := make(chan error, 4)
	for _, name := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, bytes.Repeat([]byte(name), 512), 0o666); err != nil {
				errs <- err
				return
			}
			written <- p
		}()
	}
	wg.Wait()
	close(written)
	for p := range written {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := os.ReadFile(p)
			if err != nil {
				errs <- err
			} else if len(b) != 512 {
				errs <- fmt.Errorf("%s: %d bytes", p, len(b))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestSubprocess runs a command and reads its output.
func TestSubprocess(t *testing.T) {
	if _, err := exec.LookPath("echo"); err != nil {
		t.Skip("no echo command")
	}
	out, err := exec.Command("echo", "hello").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "hello\n" {
		t.Errorf("output %q", out)
	}
}

// TestPipe runs a client and a server over net.Pipe.
func TestPipe(t *testing.T) {
	client, server := net.Pipe()
	done := make(chan bool)
	go func() {
		Echo(server)
		done <- true
	}()
	r := bufio.NewReader(client)
	for _, msg := range []string{"one", "two", "three"} {
		if _, err := fmt.Fprintf(client, "%s\n", msg); err != nil {
			t.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if want := "[" + msg + "]\n"; line != want {
			t.Errorf("got %q, want %q", line, want)
		}
	}
	client.Close()
	<-done
}

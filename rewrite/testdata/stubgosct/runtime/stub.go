// Package runtime is a pass-through stand-in for gosct's runtime, used by
// the rewriter's tests: every hook does exactly what the original
// operation did. It has the hook API of docs/design.md.
package runtime

import (
	"context"
	"io"
	"net"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Token is the result of Atomic, Read and Write.
type Token struct{}

func Test(t *testing.T, body func(*testing.T))               { body(t) }
func Run(t *testing.T, name string, f func(*testing.T)) bool { return t.Run(name, f) }
func Parallel(t *testing.T)                                  { t.Parallel() }
func Cleanup(t *testing.T, f func())                         { t.Cleanup(f) }
func T(t *testing.T) *testing.T                              { return t }
func CleanupTB(tb interface{ Cleanup(func()) }, f func())    { tb.Cleanup(f) }
func TestContext(t *testing.T) context.Context               { return t.Context() }
func TestContextTB(tb interface{ Context() context.Context }) context.Context {
	return tb.Context()
}
func TB[I any](tb I) I { return tb }
func Go(f func())      { go f() }
func Gosched()         { runtime.Gosched() }

func Chan[T any](c chan T) chan T       { return c }
func Send[T any](c chan<- T, v T)       { c <- v }
func Recv[T any](c <-chan T) T          { return <-c }
func Recv2[T any](c <-chan T) (T, bool) { v, ok := <-c; return v, ok }
func Close[T any](c chan<- T)           { close(c) }
func Len[T any](c <-chan T) int         { return len(c) }
func Cap[T any](c <-chan T) int         { return cap(c) }

// Case is a select case built by OnRecv or OnSend.
type Case interface{ sc() reflect.SelectCase }

// RecvCase is a receive case; Value and OK hold what was received.
type RecvCase[T any] struct {
	c     <-chan T
	Value T
	OK    bool
}

func (c *RecvCase[T]) sc() reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c.c)}
}

// SendCase is a send case.
type SendCase[T any] struct {
	c chan<- T
	v T
}

func (c *SendCase[T]) sc() reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(c.c), Send: reflect.ValueOf(&c.v).Elem()}
}

func OnRecv[T any](c <-chan T) *RecvCase[T]      { return &RecvCase[T]{c: c} }
func OnSend[T any](c chan<- T, v T) *SendCase[T] { return &SendCase[T]{c: c, v: v} }

// Select runs a select over cases; -1 is the default case.
func Select(hasDefault bool, cases ...Case) int {
	var scs []reflect.SelectCase
	for _, c := range cases {
		scs = append(scs, c.sc())
	}
	if hasDefault {
		scs = append(scs, reflect.SelectCase{Dir: reflect.SelectDefault})
	}
	if len(scs) == 0 {
		select {}
	}
	i, v, ok := reflect.Select(scs)
	if hasDefault && i == len(cases) {
		return -1
	}
	if rc, isRecv := cases[i].(interface{ set(reflect.Value, bool) }); isRecv {
		rc.set(v, ok)
	}
	return i
}

func (c *RecvCase[T]) set(v reflect.Value, ok bool) {
	if ok {
		reflect.ValueOf(&c.Value).Elem().Set(v)
	}
	c.OK = ok
}

func Lock(m *sync.Mutex)                                       { m.Lock() }
func Unlock(m *sync.Mutex)                                     { m.Unlock() }
func TryLock(m *sync.Mutex) bool                               { return m.TryLock() }
func RWLock(m *sync.RWMutex)                                   { m.Lock() }
func RWUnlock(m *sync.RWMutex)                                 { m.Unlock() }
func RWTryLock(m *sync.RWMutex) bool                           { return m.TryLock() }
func RLock(m *sync.RWMutex)                                    { m.RLock() }
func RUnlock(m *sync.RWMutex)                                  { m.RUnlock() }
func TryRLock(m *sync.RWMutex) bool                            { return m.TryRLock() }
func RLocker(m *sync.RWMutex) sync.Locker                      { return m.RLocker() }
func LockerLock(l sync.Locker)                                 { l.Lock() }
func LockerUnlock(l sync.Locker)                               { l.Unlock() }
func Add(wg *sync.WaitGroup, n int)                            { wg.Add(n) }
func Done(wg *sync.WaitGroup)                                  { wg.Done() }
func Wait(wg *sync.WaitGroup)                                  { wg.Wait() }
func WaitGroupGo(wg *sync.WaitGroup, f func())                 { wg.Add(1); go func() { defer wg.Done(); f() }() }
func Do(o *sync.Once, f func())                                { o.Do(f) }
func OnceFunc(f func()) func()                                 { return sync.OnceFunc(f) }
func OnceValue[T any](f func() T) func() T                     { return sync.OnceValue(f) }
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) { return sync.OnceValues(f) }
func CondWait(c *sync.Cond)                                    { c.Wait() }
func Signal(c *sync.Cond)                                      { c.Signal() }
func Broadcast(c *sync.Cond)                                   { c.Broadcast() }

func Atomic(addr any) Token     { return Token{} }
func AtomicLoad(addr any) Token { return Token{} }
func WithCancel(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithCancel(parent)
}
func WithCancelCause(parent context.Context) (context.Context, context.CancelCauseFunc) {
	return context.WithCancelCause(parent)
}

// PipeReader and PipeWriter are types of their own, as the runtime's: a
// rewritten pipe that needed io's types would not compile.
type PipeReader struct{ *io.PipeReader }
type PipeWriter struct{ *io.PipeWriter }

func Pipe() (*PipeReader, *PipeWriter) {
	r, w := io.Pipe()
	return &PipeReader{r}, &PipeWriter{w}
}
func ContextAfterFunc(ctx context.Context, f func()) func() bool { return context.AfterFunc(ctx, f) }
func NetPipe() (net.Conn, net.Conn)                              { return net.Pipe() }
func Read(addr any) Token                                        { return Token{} }
func Write(addr any) Token                                       { return Token{} }
func Then[T any](_ Token, v T) T                                 { return v }
func Load[T any](p *T) T                                         { return *p }
func Store[T any](p *T, v T)                                     { *p = v }

type Site struct{ Expr, Pos string }

func LoadAt[T any](p *T, s *Site) T         { return *p }
func StoreAt[T any](p *T, v T, s *Site)     { *p = v }
func ReadAt(addr any, s *Site) Token        { return Token{} }
func WriteAt(addr any, s *Site) Token       { return Token{} }
func ShadowLoad[T any](p *T, s *Site) T     { return *p }
func ShadowStore[T any](p *T, v T, s *Site) { *p = v }
func ShadowRead(addr any, s *Site) Token    { return Token{} }
func ShadowWrite(addr any, s *Site) Token   { return Token{} }
func AtomicStore(addr any) Token            { return Token{} }
func AtomicCAS(addr any) Token              { return Token{} }
func ThenCAS(_ Token, swapped bool) bool    { return swapped }
func PoolPut(_ Token, x any) any            { return x }
func PoolGot(_ Token, x any) any            { return x }

func Sleep(d time.Duration)                           { time.Sleep(d) }
func After(d time.Duration) <-chan time.Time          { return time.After(d) }
func Tick(d time.Duration) <-chan time.Time           { return time.Tick(d) }
func NewTimer(d time.Duration) *time.Timer            { return time.NewTimer(d) }
func NewTicker(d time.Duration) *time.Ticker          { return time.NewTicker(d) }
func AfterFunc(d time.Duration, f func()) *time.Timer { return time.AfterFunc(d, f) }
func Now() time.Time                                  { return time.Now() }
func Since(t time.Time) time.Duration                 { return time.Since(t) }
func Until(t time.Time) time.Duration                 { return time.Until(t) }
func TimerStop(t *time.Timer) bool                    { return t.Stop() }
func TimerReset(t *time.Timer, d time.Duration) bool  { return t.Reset(d) }
func TickerStop(t *time.Ticker)                       { t.Stop() }
func TickerReset(t *time.Ticker, d time.Duration)     { t.Reset(d) }

func WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d)
}
func WithDeadline(ctx context.Context, t time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(ctx, t)
}
func WithTimeoutCause(ctx context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d, cause)
}
func WithDeadlineCause(ctx context.Context, t time.Time, cause error) (context.Context, context.CancelFunc) {
	return context.WithDeadlineCause(ctx, t, cause)
}

func ShadowMapRead[M any](m M, s *Site) M                 { return m }
func ShadowDeref[T any](p *T, s *Site) *T                 { return p }
func Copy[E any](dst, src []E, s *Site) int               { return copy(dst, src) }
func CopyString(dst []byte, src string, s *Site) int      { return copy(dst, src) }
func AppendTo[S ~[]E, E any](s S, n int, site *Site) S    { return s }
func AppendSlice[S ~[]E, E any](s S, t []E, site *Site) S { return append(s, t...) }
func AppendString[S ~[]byte](s S, t string, site *Site) S { return append(s, t...) }

func LinkTimeNow() (int64, int32, int64) {
	t := time.Now()
	return t.Unix(), int32(t.Nanosecond()), t.UnixNano()
}
func LinkNanotime() int64 { return time.Now().UnixNano() }
func LinkWalltime() (int64, int32) {
	t := time.Now()
	return t.Unix(), int32(t.Nanosecond())
}

"""Small programs the sandbox tests of both backends run inside the sandbox."""

#: A service that daemonizes (double fork + setsid, stdio to /dev/null) and answers every GET with argv[1].
DAEMON = r'''
import http.server, os, sys
body = sys.argv[1].encode()
if os.fork():
    os._exit(0)
os.setsid()
if os.fork():
    os._exit(0)
os.chdir("/")
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

http.server.HTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
'''

#: Prints `<host> <port> CONNECTED` or `<host> <port> BLOCKED <error>` for a TCP connection to each
#: argv host/port pair (argv[1]:argv[2], argv[3]:argv[4], ...), a line each.
CONNECT = r'''
import socket, sys
for host, port in zip(sys.argv[1::2], sys.argv[2::2]):
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
        print(host, port, "CONNECTED", flush=True)
    except OSError as exc:
        print(host, port, "BLOCKED", exc, flush=True)
'''

#: Asks the proxy in $HTTPS_PROXY for argv[1] (a CONNECT target, or "GET <url>" for a plain request); prints its
#: status line, or NO PROXY when nothing answers there.
VIA_PROXY = r'''
import os, socket, sys
host, port = os.environ["HTTPS_PROXY"].rsplit("/", 1)[-1].split(":")
target = sys.argv[1]
line = f"{target} HTTP/1.1" if target.startswith("GET ") else f"CONNECT {target} HTTP/1.1"
try:
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(f"{line}\r\nHost: {target}\r\n\r\n".encode())
    print(sock.recv(200).split(b"\r\n")[0].decode())
except OSError as exc:
    print("NO PROXY", exc)
'''

#: A shell that says whether it may open its parent's memory for writing: `opened` or `refused` (red team round 17
#: wrote Maven's memory this way from a process of the test JVM).
OPEN_PARENT_MEMORY_SH = 'if (exec 3<>"/proc/$PPID/mem") 2>/dev/null; then echo opened; else echo refused; fi'

#: A Java program (single-file source launch) whose child runs OPEN_PARENT_MEMORY_SH against the JVM.
JAVA_PARENT = '''
public class Parent {
    public static void main(String[] args) throws Exception {
        Process child = new ProcessBuilder("sh", "-c", args[0]).inheritIO().start();
        System.exit(child.waitFor());
    }
}
'''

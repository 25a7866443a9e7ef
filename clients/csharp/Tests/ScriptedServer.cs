using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Hearth.Tests
{
    /// <summary>A request as the scripted server read it.</summary>
    public sealed class SeenRequest
    {
        public string Method;
        public string Path;
        public Dictionary<string, string> Headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        public string Body;

        public string Header(string name)
        {
            string value;
            return Headers.TryGetValue(name, out value) ? value : null;
        }
    }

    /// <summary>What the server does with the n-th request: answer, drop the connection, hang,
    /// or write a raw body (an event stream) and close.</summary>
    public sealed class Reply
    {
        public int Status = 200;
        public string Body = "";
        public string ContentType = "application/json";
        public Dictionary<string, string> Headers = new Dictionary<string, string>();
        public bool Drop;
        public bool Hang;

        public static Reply Json(int status, string body)
        {
            return new Reply { Status = status, Body = body };
        }

        public static Reply Envelope(int status, string code, string retryAfter = null)
        {
            var reply = Json(status, "{\"error\": {\"code\": \"" + code + "\", \"message\": \"" + code + "\", \"details\": []}}");
            if (retryAfter != null) reply.Headers["Retry-After"] = retryAfter;
            return reply;
        }

        public static Reply Stream(string text)
        {
            return new Reply { ContentType = "text/event-stream", Body = text };
        }
    }

    /// <summary>A plain TCP server speaking just enough HTTP/1.1 (one request a connection) to
    /// script the answers a retrying client must survive: 429s, 503s, lost connections, streams
    /// that end mid-event.</summary>
    public sealed class ScriptedServer : IDisposable
    {
        private readonly TcpListener listener = new TcpListener(IPAddress.Loopback, 0);
        private readonly List<TcpClient> held = new List<TcpClient>();
        private volatile bool stopped;

        public ScriptedServer()
        {
            listener.Start();
            Url = "http://127.0.0.1:" + ((IPEndPoint)listener.LocalEndpoint).Port;
            Seen = new ConcurrentQueue<SeenRequest>();
            Task.Run(() => AcceptAsync());
        }

        public string Url { get; private set; }
        public Func<SeenRequest, int, Reply> Script { get; set; }
        public ConcurrentQueue<SeenRequest> Seen { get; private set; }

        public List<SeenRequest> Requests
        {
            get { return new List<SeenRequest>(Seen); }
        }

        public void Reset()
        {
            SeenRequest ignored;
            while (Seen.TryDequeue(out ignored)) { }
        }

        private async Task AcceptAsync()
        {
            while (!stopped)
            {
                TcpClient connection;
                try
                {
                    connection = await listener.AcceptTcpClientAsync();
                }
                catch (Exception)
                {
                    return; // stopped
                }
                ThreadPool.QueueUserWorkItem(_ => Serve(connection)); // each connection on its own
            }
        }

        private void Serve(TcpClient connection)
        {
            try
            {
                var stream = connection.GetStream();
                SeenRequest request = Read(stream);
                if (request == null)
                {
                    connection.Close();
                    return;
                }
                Seen.Enqueue(request);
                Reply reply = Script(request, Seen.Count);
                if (reply.Hang)
                {
                    lock (held) held.Add(connection);
                    return;
                }
                if (!reply.Drop)
                {
                    var head = new StringBuilder();
                    head.Append("HTTP/1.1 " + reply.Status + " Scripted\r\n");
                    head.Append("Content-Type: " + reply.ContentType + "\r\nConnection: close\r\n");
                    foreach (var pair in reply.Headers) head.Append(pair.Key + ": " + pair.Value + "\r\n");
                    byte[] body = Encoding.UTF8.GetBytes(reply.Body);
                    if (reply.ContentType != "text/event-stream") head.Append("Content-Length: " + body.Length + "\r\n");
                    head.Append("\r\n");
                    byte[] bytes = Encoding.ASCII.GetBytes(head.ToString());
                    stream.Write(bytes, 0, bytes.Length);
                    stream.Write(body, 0, body.Length);
                    stream.Flush();
                }
                else
                {
                    connection.Client.LingerState = new LingerOption(true, 0); // a reset, not a polite close
                }
                connection.Close();
            }
            catch (IOException)
            {
                connection.Close();
            }
        }

        private static SeenRequest Read(NetworkStream stream)
        {
            var head = new List<byte>();
            while (!EndsWith(head, "\r\n\r\n"))
            {
                int b = stream.ReadByte();
                if (b < 0) return null;
                head.Add((byte)b);
            }
            string[] lines = Encoding.ASCII.GetString(head.ToArray()).Split(new[] { "\r\n" }, StringSplitOptions.None);
            string[] first = lines[0].Split(' ');
            var request = new SeenRequest { Method = first[0], Path = first[1] };
            foreach (string line in lines)
            {
                int colon = line.IndexOf(':');
                if (colon > 0) request.Headers[line.Substring(0, colon).Trim()] = line.Substring(colon + 1).Trim();
            }
            int length = int.Parse(request.Header("Content-Length") ?? "0");
            var body = new byte[length];
            for (int read = 0; read < length;)
            {
                int n = stream.Read(body, read, length - read);
                if (n <= 0) break;
                read += n;
            }
            request.Body = Encoding.UTF8.GetString(body);
            return request;
        }

        private static bool EndsWith(List<byte> bytes, string tail)
        {
            if (bytes.Count < tail.Length) return false;
            for (int i = 0; i < tail.Length; i++)
                if (bytes[bytes.Count - tail.Length + i] != tail[i]) return false;
            return true;
        }

        public void Dispose()
        {
            stopped = true;
            listener.Stop();
            lock (held) foreach (var connection in held) connection.Close();
        }
    }
}

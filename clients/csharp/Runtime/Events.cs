using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Hearth
{
    /// <summary>One message of a world's event stream: <see cref="Type"/> names the payload in
    /// <see cref="Data"/> (<c>agent_created</c> → <see cref="AgentCreatedEvent"/>, …).</summary>
    public sealed class HearthEvent
    {
        public HearthEvent(long id, string type, JToken data)
        {
            Id = id;
            Type = type;
            Data = data;
        }

        /// <summary>Resume after this id (<c>Last-Event-ID</c>).</summary>
        public long Id { get; private set; }
        public string Type { get; private set; }
        public JToken Data { get; private set; }

        /// <summary>The payload as its typed model, e.g. <c>e.As&lt;UtteranceEvent&gt;()</c>.</summary>
        public T As<T>()
        {
            return Data.ToObject<T>(JsonSerializer.Create(Json.Settings));
        }
    }

    /// <summary>Server-Sent Events, line by line: a blank line ends an event; <c>:</c> lines are
    /// comments (keep-alives). An event without a numeric id or without data is dropped.</summary>
    public sealed class EventDecoder
    {
        private string id;
        private string type = "message";
        private readonly List<string> data = new List<string>();

        public HearthEvent Feed(string line)
        {
            if (line.Length == 0) return Dispatch();
            if (line[0] == ':') return null;
            int colon = line.IndexOf(':');
            string name = colon < 0 ? line : line.Substring(0, colon);
            string value = colon < 0 ? "" : line.Substring(colon + 1);
            if (value.StartsWith(" ", StringComparison.Ordinal)) value = value.Substring(1);
            if (name == "id") id = value;
            else if (name == "event") type = value;
            else if (name == "data") data.Add(value);
            return null;
        }

        private HearthEvent Dispatch()
        {
            string eventId = id, eventType = type;
            string text = string.Join("\n", data.ToArray());
            bool complete = data.Count > 0;
            id = null;
            type = "message";
            data.Clear();
            long number;
            if (eventId == null || !complete || !long.TryParse(eventId, out number) || number < 0) return null;
            return new HearthEvent(number, eventType, Parse(text));
        }

        private static JToken Parse(string text)
        {
            try
            {
                using (var reader = new JsonTextReader(new StringReader(text)) { DateParseHandling = DateParseHandling.None })
                {
                    return JToken.ReadFrom(reader);
                }
            }
            catch (JsonException)
            {
                return new JValue(text); // not JSON: keep the text
            }
        }
    }

    /// <summary>
    /// A world's events in order. A dropped stream reconnects after the last event seen
    /// (<c>Last-Event-ID</c>), so nothing is lost or repeated; with <c>once</c> it ends at the
    /// current end. <see cref="NextAsync"/> answers null when the stream ends or is cancelled.
    /// <code>
    /// using (var events = hearth.Events(worldId, after: lastSeen))
    ///     for (var e = await events.NextAsync(); e != null; e = await events.NextAsync())
    ///         Debug.Log(e.Id + " " + e.Type);
    /// </code>
    /// </summary>
    public sealed class EventStream : IDisposable
    {
        /// <summary>The server sends a keep-alive every 15 s; a minute of silence means the link is dead.</summary>
        public static readonly TimeSpan ReadTimeout = TimeSpan.FromSeconds(60);

        private readonly HearthClient client;
        private readonly string path;
        private readonly bool once;
        private readonly bool reconnect;
        private readonly CancellationToken token;
        private HttpResponseMessage response;
        private StreamReader reader;
        private EventDecoder decoder;
        private int failures;
        private bool ended;

        internal EventStream(HearthClient client, string path, long? after, bool once, bool reconnect, CancellationToken token)
        {
            this.client = client;
            this.path = path;
            this.once = once;
            this.reconnect = reconnect;
            this.token = token;
            LastEventId = after;
        }

        /// <summary>The id of the last event read: where a new stream would resume.</summary>
        public long? LastEventId { get; private set; }

        /// <summary>Connections opened so far (1 + reconnections).</summary>
        public int Connections { get; private set; }

        public async Task<HearthEvent> NextAsync()
        {
            while (!ended && !token.IsCancellationRequested)
            {
                try
                {
                    if (reader == null) await ConnectAsync().ConfigureAwait(false);
                    string line = await ReadLineAsync().ConfigureAwait(false);
                    if (line == null)
                    {
                        Close();
                        if (once) ended = true;
                        else await WaitAsync().ConfigureAwait(false);
                        continue;
                    }
                    HearthEvent e = decoder.Feed(line);
                    if (e == null) continue;
                    failures = 0;
                    LastEventId = e.Id;
                    return e;
                }
                catch (Exception error) when (!token.IsCancellationRequested && Retriable(error))
                {
                    Close();
                    failures += 1;
                    if (!reconnect || failures >= client.Retry.Attempts)
                    {
                        if (error is HearthException) throw;
                        throw new ConnectionFailedException("event stream: " + error.Message, error);
                    }
                    await WaitAsync().ConfigureAwait(false);
                }
            }
            return null;
        }

        private static bool Retriable(Exception error)
        {
            if (error is RateLimitedException || error is UnavailableException) return true;
            return !(error is HearthException);
        }

        private async Task WaitAsync()
        {
            try
            {
                await client.Retry.Sleep(client.Retry.Delay(failures), token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                // cancelled while waiting: NextAsync answers null
            }
        }

        private async Task ConnectAsync()
        {
            Connections += 1;
            response = await client.OpenStreamAsync(path, LastEventId, token).ConfigureAwait(false);
            reader = new StreamReader(await response.Content.ReadAsStreamAsync().ConfigureAwait(false));
            decoder = new EventDecoder();
        }

        /// <summary>The next line, or null at the end; a minute without a byte breaks the link.</summary>
        private async Task<string> ReadLineAsync()
        {
            Task<string> read = reader.ReadLineAsync();
            using (var idle = CancellationTokenSource.CreateLinkedTokenSource(token))
            {
                Task first = await Task.WhenAny(read, Task.Delay(ReadTimeout, idle.Token)).ConfigureAwait(false);
                idle.Cancel();
                if (first == read) return await read.ConfigureAwait(false);
            }
            Close(); // unblocks the read
            if (token.IsCancellationRequested) return null;
            throw new IOException("no byte from the event stream for " + ReadTimeout.TotalSeconds + " s");
        }

        private void Close()
        {
            if (reader != null) reader.Dispose();
            if (response != null) response.Dispose();
            reader = null;
            response = null;
        }

        public void Dispose()
        {
            ended = true;
            Close();
        }
    }
}

using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Hearth
{
    /// <summary>
    /// The Hearth API over <see cref="HttpClient"/>: every route one async method (split by area
    /// over the partial files HearthClient.*.cs). Errors are typed (<see cref="HearthException"/>);
    /// 429 and 503 are retried as <see cref="Hearth.Retry"/> says; every create carries one
    /// Idempotency-Key across its tries. In a game, use a world's key, never the admin key.
    /// </summary>
    public sealed partial class HearthClient : IDisposable
    {
        public const string IdempotencyHeader = "Idempotency-Key";
        public const int DefaultPageSize = 100;
        private const string UserAgent = "hearth-client-csharp/0.1";

        private readonly HttpClient http;
        private readonly string apiKey;

        /// <param name="baseUrl">e.g. <c>http://127.0.0.1:8000</c></param>
        /// <param name="apiKey">an admin key, or a world's key (which reaches only its world)</param>
        /// <param name="retry">default: 4 tries, backoff from 0.5 s up to 10 s</param>
        /// <param name="handler">another HTTP handler (a proxy, a test double)</param>
        /// <param name="timeout">per request (an event stream waits for keep-alives instead); default 30 s</param>
        public HearthClient(string baseUrl, string apiKey = null, Retry retry = null,
            HttpMessageHandler handler = null, TimeSpan? timeout = null)
        {
            BaseUrl = baseUrl.TrimEnd('/');
            this.apiKey = apiKey;
            Retry = retry ?? new Retry();
            Timeout = timeout ?? TimeSpan.FromSeconds(30);
            http = handler == null ? new HttpClient() : new HttpClient(handler);
            http.Timeout = System.Threading.Timeout.InfiniteTimeSpan; // ours, per request
        }

        public string BaseUrl { get; private set; }
        public Retry Retry { get; private set; }
        public TimeSpan Timeout { get; private set; }

        public void Dispose()
        {
            http.Dispose();
        }

        /// <summary>Send one call: 429/503 are retried with backoff (and a lost connection when
        /// resending is harmless); a create carries one Idempotency-Key across all its tries.</summary>
        public async Task<T> SendAsync<T>(Call call, string idempotencyKey = null, CancellationToken token = default(CancellationToken))
        {
            string key = call.Creates ? (idempotencyKey ?? Guid.NewGuid().ToString()) : null;
            for (int attempt = 0; ; attempt++)
            {
                TimeSpan? wait;
                HttpResponseMessage response;
                try
                {
                    response = await AttemptAsync(call, key, token).ConfigureAwait(false);
                }
                catch (Exception error) when (!token.IsCancellationRequested && !(error is HearthException))
                {
                    wait = Retry.AfterFailure(call, attempt);
                    if (wait == null)
                        throw new ConnectionFailedException(call.Method + " " + call.Path + ": " + Describe(error), error);
                    await Retry.Sleep(wait.Value, token).ConfigureAwait(false);
                    continue;
                }
                using (response)
                {
                    wait = Retry.AfterResponse(call, (int)response.StatusCode, Header(response, "Retry-After"), attempt);
                    if (wait == null) return await DecodeAsync<T>(call, response).ConfigureAwait(false);
                }
                await Retry.Sleep(wait.Value, token).ConfigureAwait(false);
            }
        }

        private async Task<HttpResponseMessage> AttemptAsync(Call call, string key, CancellationToken token)
        {
            using (var request = new HttpRequestMessage(new HttpMethod(call.Method), Url(call)))
            using (var limit = CancellationTokenSource.CreateLinkedTokenSource(token))
            {
                Authorize(request, "application/json");
                if (key != null) request.Headers.TryAddWithoutValidation(IdempotencyHeader, key);
                if (call.RawBody != null)
                {
                    request.Content = new ByteArrayContent(call.RawBody);
                    request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/x-ndjson");
                }
                else if (call.Body != null)
                {
                    request.Content = new StringContent(Json.Write(call.Body), Encoding.UTF8, "application/json");
                }
                limit.CancelAfter(Timeout);
                var response = await http.SendAsync(request, HttpCompletionOption.ResponseContentRead, limit.Token).ConfigureAwait(false);
                return response;
            }
        }

        private static async Task<T> DecodeAsync<T>(Call call, HttpResponseMessage response)
        {
            int status = (int)response.StatusCode;
            if (!response.IsSuccessStatusCode && !call.Accepts(status))
                throw await Errors.FromResponseAsync(response).ConfigureAwait(false);
            string text = response.Content == null ? "" : await response.Content.ReadAsStringAsync().ConfigureAwait(false);
            if (typeof(T) == typeof(string)) return (T)(object)text;
            if (status == 204 || text.Length == 0) return default(T);
            return Json.Read<T>(text);
        }

        /// <summary>One connection of an event stream, its headers read; the body is read as it comes.</summary>
        internal async Task<HttpResponseMessage> OpenStreamAsync(string pathAndQuery, long? lastEventId, CancellationToken token)
        {
            using (var request = new HttpRequestMessage(HttpMethod.Get, BaseUrl + pathAndQuery))
            {
                Authorize(request, "text/event-stream");
                if (lastEventId.HasValue) request.Headers.TryAddWithoutValidation("Last-Event-ID", lastEventId.Value.ToString());
                HttpResponseMessage response;
                using (var limit = CancellationTokenSource.CreateLinkedTokenSource(token))
                {
                    limit.CancelAfter(Timeout); // for the headers; the body has its own idle limit
                    response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, limit.Token).ConfigureAwait(false);
                }
                if (response.IsSuccessStatusCode) return response;
                using (response) throw await Errors.FromResponseAsync(response).ConfigureAwait(false);
            }
        }

        private void Authorize(HttpRequestMessage request, string accept)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
            request.Headers.TryAddWithoutValidation("User-Agent", UserAgent);
            if (!string.IsNullOrEmpty(apiKey)) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", apiKey);
        }

        private string Url(Call call)
        {
            if (call.Query.Count == 0) return BaseUrl + call.Path;
            var pairs = call.Query.Select(p => Uri.EscapeDataString(p.Key) + "=" + Uri.EscapeDataString(p.Value));
            return BaseUrl + call.Path + "?" + string.Join("&", pairs.ToArray());
        }

        private static string Header(HttpResponseMessage response, string name)
        {
            IEnumerable<string> values;
            return response.Headers.TryGetValues(name, out values) ? values.FirstOrDefault() : null;
        }

        private static string Describe(Exception error)
        {
            var parts = new List<string>();
            for (var e = error; e != null; e = e.InnerException) parts.Add(e.GetType().Name + ": " + e.Message);
            return string.Join(" <- ", parts.ToArray());
        }

        /// <summary>Every item of a cursor-paged list, fetched page by page as it is read.</summary>
        private Pager<T> Pages<T>(Func<Call> call, int pageSize, CancellationToken token)
        {
            return new Pager<T>((cursor, t) => SendAsync<Page<T>>(call().With("limit", pageSize).With("cursor", cursor), null, t), token);
        }

        private static string Seg(object value)
        {
            return Uri.EscapeDataString(Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture));
        }

        private static string World(string worldId, string rest = "")
        {
            return "/v1/worlds/" + Seg(worldId) + rest;
        }

        private static string Agent(string worldId, string agentId, string rest = "")
        {
            return World(worldId, "/agents/" + Seg(agentId) + rest);
        }
    }
}

using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;

namespace Hearth
{
    /// <summary>
    /// One request as a value. <see cref="Creates"/> gets an Idempotency-Key, so retrying it can
    /// never create twice; <see cref="Replayable"/> marks a POST that is safe to resend after a lost
    /// connection (a search); <see cref="Accept"/> lists non-2xx statuses whose body is the answer.
    /// </summary>
    public sealed class Call
    {
        public Call(string method, string path)
        {
            Method = method;
            Path = path;
            Query = new List<KeyValuePair<string, string>>();
        }

        public string Method { get; private set; }
        public string Path { get; private set; }
        public object Body { get; set; }
        /// <summary>Raw bytes sent as they are (an export being imported), instead of JSON.</summary>
        public byte[] RawBody { get; set; }
        public List<KeyValuePair<string, string>> Query { get; private set; }
        public bool Creates { get; set; }
        public bool Replayable { get; set; }
        public int[] Accept { get; set; }

        public Call With(string name, object value)
        {
            if (value == null) return this;
            var text = value is bool ? ((bool)value ? "true" : "false") : Convert.ToString(value, CultureInfo.InvariantCulture);
            Query.Add(new KeyValuePair<string, string>(name, text));
            return this;
        }

        /// <summary>After a lost connection the server may or may not have acted: resend only if
        /// harmless (reads, creates with their key, searches). A step, chat, interview or clock
        /// change is never resent.</summary>
        public bool MayResend
        {
            get { return Method == "GET" || Method == "PUT" || Method == "DELETE" || Creates || Replayable; }
        }

        public bool Accepts(int status)
        {
            return Accept != null && Array.IndexOf(Accept, status) >= 0;
        }
    }

    /// <summary>Bounded retries with capped exponential backoff and jitter; <c>Retry-After</c> is
    /// honoured (up to a minute). 429 and 503 are retried; a proxy's 502/504 and a lost connection
    /// only when resending is harmless.</summary>
    public sealed class Retry
    {
        public static readonly TimeSpan MaxRetryAfter = TimeSpan.FromSeconds(60);
        private static readonly Random Jitter = new Random();

        public Retry(int attempts = 4, double backoffSeconds = 0.5, double maxBackoffSeconds = 10)
        {
            Attempts = attempts;
            BackoffSeconds = backoffSeconds;
            MaxBackoffSeconds = maxBackoffSeconds;
            Sleep = (wait, token) => Task.Delay(wait, token);
        }

        /// <summary>Tries in all, the first included (1: never retry).</summary>
        public int Attempts { get; private set; }
        public double BackoffSeconds { get; private set; }
        public double MaxBackoffSeconds { get; private set; }

        /// <summary>How a wait is spent (Task.Delay); a test may record the waits instead.</summary>
        public Func<TimeSpan, CancellationToken, Task> Sleep { get; set; }

        public TimeSpan Delay(int attempt, string retryAfter = null)
        {
            double seconds;
            if (retryAfter != null && double.TryParse(retryAfter, NumberStyles.Float, CultureInfo.InvariantCulture, out seconds))
            {
                var wait = TimeSpan.FromSeconds(Math.Max(seconds, 0));
                return wait > MaxRetryAfter ? MaxRetryAfter : wait;
            }
            double ceiling = Math.Min(MaxBackoffSeconds, BackoffSeconds * Math.Pow(2, attempt));
            double share;
            lock (Jitter) share = 0.5 + Jitter.NextDouble() / 2;
            return TimeSpan.FromSeconds(ceiling * share);
        }

        /// <summary>The wait before trying again, or null to take this answer.</summary>
        public TimeSpan? AfterResponse(Call call, int status, string retryAfter, int attempt)
        {
            if (call.Accepts(status) || attempt + 1 >= Attempts) return null;
            bool busy = status == 429 || status == 503;
            bool gateway = (status == 502 || status == 504) && call.MayResend;
            if (busy || gateway) return Delay(attempt, retryAfter);
            return null;
        }

        /// <summary>The wait after a lost connection, or null to give up.</summary>
        public TimeSpan? AfterFailure(Call call, int attempt)
        {
            if (!call.MayResend || attempt + 1 >= Attempts) return null;
            return Delay(attempt);
        }
    }
}

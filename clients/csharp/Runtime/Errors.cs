using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Threading.Tasks;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Hearth
{
    /// <summary>
    /// Anything the server refused, or no answer at all; typed by the envelope
    /// <c>{"error": {"code", "message", "details", "request_id"}}</c>:
    /// <code>
    /// HearthException            anything the server refused, or no answer at all
    /// ├── BadRequestException        400
    /// ├── UnauthorizedException      401  missing, unknown or revoked key
    /// ├── ForbiddenException         403  a world key on an admin route
    /// ├── NotFoundException          404  (also: another world's ids, by design)
    /// ├── ConflictException          409  a taken name, an Idempotency-Key reused for another body
    /// ├── PayloadTooLargeException   413
    /// ├── ValidationException        422  Details names each field at fault
    /// ├── RateLimitedException       429  (retried before it reaches you)
    /// ├── UnavailableException       503  (retried before it reaches you)
    /// ├── ServerErrorException       other 5xx
    /// └── ConnectionFailedException  no HTTP answer (refused, reset, timed out)
    /// </code>
    /// </summary>
    public class HearthException : Exception
    {
        public HearthException(string message, int status = 0, string code = "error",
            IList<JObject> details = null, string requestId = null, Exception inner = null)
            : base(message, inner)
        {
            Status = status;
            Code = code;
            Details = details ?? new List<JObject>();
            RequestId = requestId;
        }

        /// <summary>The HTTP status; 0 when there was no answer.</summary>
        public int Status { get; private set; }

        /// <summary>The envelope's code: <c>not_found</c>, <c>validation_error</c>, …</summary>
        public string Code { get; private set; }

        /// <summary>One object per fault, with its <c>field</c> and <c>message</c>.</summary>
        public IList<JObject> Details { get; private set; }

        /// <summary>The request's id, as the server's log lines give it.</summary>
        public string RequestId { get; private set; }

        /// <summary>The fields the server blamed, e.g. <c>body.known_places.1</c>.</summary>
        public IList<string> Fields
        {
            get
            {
                return Details.Select(d => (string)d["field"]).Where(f => !string.IsNullOrEmpty(f)).ToList();
            }
        }

        public override string ToString()
        {
            return Status == 0 ? Message : Status + " " + Code + ": " + Message;
        }
    }

    public class BadRequestException : HearthException
    {
        public BadRequestException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class UnauthorizedException : HearthException
    {
        public UnauthorizedException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class ForbiddenException : HearthException
    {
        public ForbiddenException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class NotFoundException : HearthException
    {
        public NotFoundException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class ConflictException : HearthException
    {
        public ConflictException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class PayloadTooLargeException : HearthException
    {
        public PayloadTooLargeException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class ValidationException : HearthException
    {
        public ValidationException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class RateLimitedException : HearthException
    {
        public RateLimitedException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class UnavailableException : HearthException
    {
        public UnavailableException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class ServerErrorException : HearthException
    {
        public ServerErrorException(string m, int s, string c, IList<JObject> d, string r) : base(m, s, c, d, r) { }
    }

    public class ConnectionFailedException : HearthException
    {
        public ConnectionFailedException(string message, Exception inner) : base(message, 0, "connection_failed", null, null, inner) { }
    }

    /// <summary>Reads a non-2xx answer into its typed exception.</summary>
    public static class Errors
    {
        private const int MaxTextChars = 500;

        public static async Task<HearthException> FromResponseAsync(HttpResponseMessage response)
        {
            string text = response.Content == null ? "" : await response.Content.ReadAsStringAsync().ConfigureAwait(false);
            IEnumerable<string> ids;
            string requestId = response.Headers.TryGetValues("X-Request-ID", out ids) ? ids.FirstOrDefault() : null;
            return FromBody((int)response.StatusCode, text, requestId, response.ReasonPhrase);
        }

        /// <summary>The typed exception for a status and a body (the envelope, when there is one).</summary>
        public static HearthException FromBody(int status, string text, string requestId, string reason = null)
        {
            string code = "http_error";
            string message = string.IsNullOrEmpty(text) ? (reason ?? "HTTP " + status) : Cut(text);
            IList<JObject> details = new List<JObject>();
            ErrorBody body = Envelope(text);
            if (body != null && body.Code != null)
            {
                code = body.Code;
                message = body.Message ?? message;
                details = body.Details ?? details;
                requestId = body.RequestId ?? requestId;
            }
            switch (status)
            {
                case 400: return new BadRequestException(message, status, code, details, requestId);
                case 401: return new UnauthorizedException(message, status, code, details, requestId);
                case 403: return new ForbiddenException(message, status, code, details, requestId);
                case 404: return new NotFoundException(message, status, code, details, requestId);
                case 409: return new ConflictException(message, status, code, details, requestId);
                case 413: return new PayloadTooLargeException(message, status, code, details, requestId);
                case 422: return new ValidationException(message, status, code, details, requestId);
                case 429: return new RateLimitedException(message, status, code, details, requestId);
                case 503: return new UnavailableException(message, status, code, details, requestId);
            }
            if (status >= 500) return new ServerErrorException(message, status, code, details, requestId);
            return new HearthException(message, status, code, details, requestId);
        }

        private static ErrorBody Envelope(string text)
        {
            try
            {
                var envelope = JsonConvert.DeserializeObject<ErrorEnvelope>(text, Json.Settings);
                return envelope == null ? null : envelope.Error;
            }
            catch (JsonException)
            {
                return null; // not the envelope (a proxy's page): keep the text
            }
        }

        private static string Cut(string text)
        {
            return text.Length <= MaxTextChars ? text : text.Substring(0, MaxTextChars);
        }
    }
}

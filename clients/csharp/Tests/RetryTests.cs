using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Hearth.Tests
{
    /// <summary>Retries against a scripted local server: 429/503 are retried (Retry-After
    /// honoured) within a bound, a create keeps one Idempotency-Key across tries, a step is never
    /// resent after a lost connection, and an event stream reconnects with Last-Event-ID. Waits
    /// are recorded instead of slept: the tests check what the client decided, not the clock.</summary>
    [TestFixture]
    public class RetryTests
    {
        private const string Caller = "{\"scope\": \"admin\", \"world_id\": null}";
        private const string Agent = "{\"id\": \"a1\", \"name\": \"Ada\"}";
        private ScriptedServer server;
        private List<TimeSpan> waits;

        [TestFixtureSetUp]
        public void Open()
        {
            server = new ScriptedServer();
        }

        [TestFixtureTearDown]
        public void Close()
        {
            server.Dispose();
        }

        [SetUp]
        public void Clear()
        {
            server.Reset();
            waits = new List<TimeSpan>();
        }

        private HearthClient Client(int attempts = 4, TimeSpan? timeout = null)
        {
            var retry = new Retry(attempts, 0.05, 0.2);
            retry.Sleep = (wait, token) =>
            {
                lock (waits) waits.Add(wait);
                return Task.FromResult(0);
            };
            return new HearthClient(server.Url, "k", retry, null, timeout);
        }

        private static AgentCreate Ada()
        {
            return new AgentCreate { Name = "Ada" };
        }

        [Test]
        public async Task RateLimitedAndUnavailableAreRetriedUntilAnAnswerHonouringRetryAfter()
        {
            server.Script = (req, n) => n == 1 ? Reply.Envelope(429, "rate_limited", "2")
                : n == 2 ? Reply.Envelope(503, "unavailable") : Reply.Json(200, Caller);
            var me = await Client().MeAsync();
            Assert.AreEqual("admin", me.Scope);
            Assert.AreEqual(3, server.Requests.Count);
            Assert.AreEqual("Bearer k", server.Requests[0].Header("Authorization"));
            Assert.AreEqual(TimeSpan.FromSeconds(2), waits[0], "Retry-After is the wait");
            Assert.That(waits[1].TotalSeconds, Is.InRange(0.05, 0.1), "then our own backoff: 0.1 s × [0.5, 1]");
        }

        [Test]
        public void RetryAfterIsTheWaitInSecondsUpToAMinute()
        {
            var retry = new Retry(4, 0.5, 10);
            Assert.AreEqual(TimeSpan.FromSeconds(3), retry.Delay(0, "3"));
            Assert.AreEqual(TimeSpan.FromSeconds(60), retry.Delay(0, "600"));
            Assert.AreEqual(TimeSpan.Zero, retry.Delay(0, "-5"));
            Assert.That(retry.Delay(0, "Wed, 21 Oct 2015 07:28:00 GMT").TotalSeconds, Is.InRange(0.25, 0.5), "a date: our backoff");
            Assert.That(retry.Delay(10).TotalSeconds, Is.InRange(5.0, 10.0), "capped");
        }

        [Test]
        public async Task RetriesAreBoundedAndTheLastAnswersErrorIsRaisedTyped()
        {
            server.Script = (req, n) => Reply.Envelope(503, "unavailable");
            await Expect.Throws<UnavailableException>(() => Client(3).MeAsync());
            Assert.AreEqual(3, server.Requests.Count);
            server.Reset();
            server.Script = (req, n) => Reply.Envelope(429, "rate_limited", "0");
            var limited = await Expect.Throws<RateLimitedException>(() => Client(2).MeAsync());
            Assert.AreEqual("rate_limited", limited.Code);
            Assert.AreEqual(2, server.Requests.Count);
        }

        [Test]
        public async Task AServerErrorIsNotRetriedAProxys502OnlyWhenResendingIsHarmless()
        {
            server.Script = (req, n) => Reply.Envelope(500, "internal_error");
            var error = await Expect.Throws<ServerErrorException>(() => Client().MeAsync());
            Assert.AreEqual("internal_error", error.Code);
            Assert.AreEqual(1, server.Requests.Count);
            server.Reset();
            server.Script = (req, n) => n == 1 ? new Reply { Status = 502, ContentType = "text/html", Body = "bad gateway" } : Reply.Json(200, Caller);
            await Client().MeAsync();
            Assert.AreEqual(2, server.Requests.Count);
            server.Reset();
            server.Script = (req, n) => new Reply { Status = 502, ContentType = "text/html", Body = "bad gateway" };
            var gateway = await Expect.Throws<ServerErrorException>(() => Client().StepAsync("w", new List<AgentStep>()));
            Assert.AreEqual("http_error", gateway.Code);
            Assert.AreEqual("bad gateway", gateway.Message);
            Assert.AreEqual(1, server.Requests.Count, "a step is never resent");
        }

        [Test]
        public async Task ACreateKeepsOneIdempotencyKeyAcrossItsTries()
        {
            server.Script = (req, n) => n < 3 ? Reply.Envelope(503, "unavailable") : Reply.Json(201, Agent);
            var agent = await Client().CreateAgentAsync("w", Ada());
            Assert.AreEqual("a1", agent.Id);
            var keys = server.Requests.Select(r => r.Header("Idempotency-Key")).ToList();
            Assert.AreEqual(3, keys.Count);
            Guid parsed;
            Assert.IsTrue(Guid.TryParse(keys[0], out parsed), "a random UUID");
            Assert.IsTrue(keys.All(k => k == keys[0]));
            StringAssert.StartsWith("application/json", server.Requests[0].Header("Content-Type"));
            StringAssert.Contains("\"name\":\"Ada\"", server.Requests[0].Body);
            StringAssert.DoesNotContain("age", server.Requests[0].Body, "unset properties are left out");
            server.Reset();
            server.Script = (req, n) => Reply.Json(201, Agent);
            await Client().CreateAgentAsync("w", Ada());
            await Client().CreateAgentAsync("w", Ada());
            var fresh = server.Requests.Select(r => r.Header("Idempotency-Key")).ToList();
            Assert.AreNotEqual(fresh[0], fresh[1], "each create its own key");
        }

        [Test]
        public async Task AfterALostConnectionACreateIsResentAStepOrClockChangeIsNot()
        {
            server.Script = (req, n) => n == 1 ? new Reply { Drop = true } : Reply.Json(201, Agent);
            Assert.AreEqual("a1", (await Client().CreateAgentAsync("w", Ada())).Id);
            var tries = server.Requests;
            Assert.AreEqual(2, tries.Count);
            Assert.AreEqual(tries[0].Header("Idempotency-Key"), tries[1].Header("Idempotency-Key"));
            server.Reset();
            server.Script = (req, n) => new Reply { Drop = true };
            var lost = await Expect.Throws<ConnectionFailedException>(() => Client().StepAsync("w", new List<AgentStep>()));
            Assert.AreEqual(0, lost.Status);
            Assert.AreEqual(1, server.Requests.Count, "a step is never resent");
            server.Reset();
            await Expect.Throws<ConnectionFailedException>(() => Client().ClockAsync("w", new ClockUpdate { AdvanceMinutes = 10 }));
            Assert.AreEqual(1, server.Requests.Count, "nor is a clock change");
        }

        [Test]
        public async Task ATimedOutReadIsRetriedATimedOutStepIsNot()
        {
            server.Script = (req, n) => n == 1 ? new Reply { Hang = true } : Reply.Json(200, Caller);
            Assert.AreEqual("admin", (await Client(4, TimeSpan.FromMilliseconds(300)).MeAsync()).Scope);
            Assert.AreEqual(2, server.Requests.Count);
            server.Reset();
            server.Script = (req, n) => new Reply { Hang = true };
            await Expect.Throws<ConnectionFailedException>(() => Client(4, TimeSpan.FromMilliseconds(300)).StepAsync("w", new List<AgentStep>()));
            Assert.AreEqual(1, server.Requests.Count);
        }

        [Test]
        public async Task AnEventStreamThatDropsReconnectsAfterTheLastEventSeen()
        {
            server.Script = (req, n) =>
            {
                if (n == 1) // ends mid-event: event 8 never completes on this connection
                    return Reply.Stream(": ping\r\n\r\nid: 7\r\nevent: agent_created\r\ndata: {\"name\": \"Ann\"}\r\n\r\nid: 8\nevent: agent_created\ndata: {\"name\":\n");
                if (n == 2) return Reply.Envelope(503, "unavailable");
                return Reply.Stream("id: 8\nevent: agent_created\ndata: {\"name\": \"Ben\"}\n\n");
            };
            var seen = new List<HearthEvent>();
            using (var events = Client().Events("w", after: 6))
            {
                while (seen.Count < 2) seen.Add(await events.NextAsync());
                Assert.AreEqual(8, events.LastEventId);
                Assert.AreEqual(3, events.Connections);
            }
            CollectionAssert.AreEqual(new[] { 7L, 8L }, seen.Select(e => e.Id).ToList());
            CollectionAssert.AreEqual(new[] { "Ann", "Ben" }, seen.Select(e => e.As<AgentCreatedEvent>().Name).ToList());
            var requests = server.Requests;
            Assert.AreEqual("6", requests[0].Header("Last-Event-ID"));
            Assert.AreEqual("7", requests[1].Header("Last-Event-ID"));
            Assert.AreEqual("7", requests[2].Header("Last-Event-ID"));
            Assert.AreEqual("text/event-stream", requests[0].Header("Accept"));
        }

        [Test]
        public async Task AnEventStreamRefusedForGoodIsNotRetried()
        {
            server.Script = (req, n) => Reply.Envelope(404, "not_found");
            using (var events = Client().Events("w"))
                await Expect.Throws<NotFoundException>(() => events.NextAsync());
            Assert.AreEqual(1, server.Requests.Count);
            server.Reset();
            server.Script = (req, n) => new Reply { Drop = true };
            using (var events = Client(3).Events("w"))
                await Expect.Throws<ConnectionFailedException>(() => events.NextAsync());
            Assert.AreEqual(3, server.Requests.Count, "reconnections are bounded too");
        }
    }
}

using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;

namespace Hearth.Tests
{
    /// <summary>The error envelope into typed exceptions, and Server-Sent Events line by line.</summary>
    [TestFixture]
    public class DecodingTests
    {
        [Test]
        public void EachStatusHasItsType()
        {
            var expected = new Dictionary<int, System.Type>
            {
                { 400, typeof(BadRequestException) }, { 401, typeof(UnauthorizedException) },
                { 403, typeof(ForbiddenException) }, { 404, typeof(NotFoundException) },
                { 409, typeof(ConflictException) }, { 413, typeof(PayloadTooLargeException) },
                { 422, typeof(ValidationException) }, { 429, typeof(RateLimitedException) },
                { 503, typeof(UnavailableException) }, { 500, typeof(ServerErrorException) },
                { 504, typeof(ServerErrorException) }, { 418, typeof(HearthException) },
            };
            foreach (var pair in expected)
                Assert.AreEqual(pair.Value, Errors.FromBody(pair.Key, "", null).GetType(), pair.Key.ToString());
        }

        [Test]
        public void TheEnvelopeGivesCodeMessageFieldsAndRequestId()
        {
            const string body = "{\"error\": {\"code\": \"validation_error\", \"message\": \"body.age: too small\", "
                + "\"details\": [{\"field\": \"body.age\", \"message\": \"too small\"}, {\"message\": \"no field\"}], \"request_id\": \"r-1\"}}";
            var error = Errors.FromBody(422, body, "header-id");
            Assert.AreEqual("validation_error", error.Code);
            Assert.AreEqual("body.age: too small", error.Message);
            CollectionAssert.AreEqual(new[] { "body.age" }, error.Fields.ToList());
            Assert.AreEqual(2, error.Details.Count);
            Assert.AreEqual("r-1", error.RequestId);
            Assert.AreEqual("422 validation_error: body.age: too small", error.ToString());
            var page = Errors.FromBody(502, "<html>bad gateway</html>", "h-2");
            Assert.AreEqual("http_error", page.Code);
            Assert.AreEqual("<html>bad gateway</html>", page.Message);
            Assert.AreEqual("h-2", page.RequestId);
        }

        [Test]
        public void EventsEndAtABlankLineCommentsAndIncompleteEventsAreSkipped()
        {
            var decoder = new EventDecoder();
            var lines = new[]
            {
                ": keep-alive", "",
                "id: 3", "event: utterance", "data: {\"text\":", "data: \"hi\"}", "",
                "id: x", "data: 1", "",
                "id: 4", "",
                "id: 5", "data: not json", "retry: 100", "",
            };
            var events = lines.Select(decoder.Feed).Where(e => e != null).ToList();
            CollectionAssert.AreEqual(new[] { 3L, 5L }, events.Select(e => e.Id).ToList());
            Assert.AreEqual("utterance", events[0].Type);
            Assert.AreEqual("hi", (string)events[0].Data["text"]);
            Assert.AreEqual("message", events[1].Type);
            Assert.AreEqual("not json", (string)events[1].Data);
        }

        [Test]
        public void GameTimesStayTheStringsTheApiWrote()
        {
            var clock = Json.Read<Clock>("{\"mode\": \"driven\", \"rate\": 60, \"now\": \"2023-02-13T07:00:00\", \"paused\": false}");
            Assert.AreEqual("2023-02-13T07:00:00", clock.Now);
            Assert.AreEqual("{\"advance_minutes\":10.0}", Json.Write(new ClockUpdate { AdvanceMinutes = 10 }));
        }
    }
}

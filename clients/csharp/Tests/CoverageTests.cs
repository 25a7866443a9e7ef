using System.IO;
using System.Linq;
using System.Net.Http;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;

namespace Hearth.Tests.Live
{
    /// <summary>The client covers every operation and schema of the live API's OpenAPI document;
    /// the check itself fails on an operation, a schema or a property the client lacks.</summary>
    [TestFixture]
    public class CoverageTests
    {
        private const string Regenerate = "\nregenerate the models: hearth openapi > /tmp/openapi.json && "
            + "python3 clients/csharp/generate_models.py /tmp/openapi.json; map new operations in Tests/openapi-map.json";

        private static async Task<JObject> LiveDocumentAsync()
        {
            using (var http = new HttpClient())
                return JObject.Parse(await http.GetStringAsync(LiveStack.Url + "/openapi.json"));
        }

        private static JObject Map()
        {
            return JObject.Parse(File.ReadAllText(Path.Combine(LiveStack.Repo, "clients", "csharp", "Tests", "openapi-map.json")));
        }

        [Test]
        public async Task TheClientCoversEveryOperationAndSchemaOfTheLiveDocument()
        {
            var problems = OpenApiCoverage.Problems(await LiveDocumentAsync(), Map());
            Assert.IsEmpty(problems, string.Join("\n", problems.ToArray()) + Regenerate);
        }

        [Test]
        public async Task AMissingOperationSchemaPropertyOrEnumValueFailsTheCheck()
        {
            var document = await LiveDocumentAsync();
            document["paths"]["/v1/worlds/{world_id}/weather"] = JObject.Parse("{\"get\": {\"operationId\": \"weather_get\"}}");
            document["components"]["schemas"]["Weather"] = JObject.Parse("{\"type\": \"object\", \"properties\": {\"rain\": {\"type\": \"boolean\"}}}");
            document["components"]["schemas"]["AgentRead"]["properties"]["mood"] = JObject.Parse("{\"type\": \"string\"}");
            document["components"]["schemas"]["ClockRead"]["properties"]["paused"] = JObject.Parse("{\"type\": \"string\"}");
            ((JArray)document["components"]["schemas"]["MemoryKind"]["enum"]).Add("dream");
            ((JObject)document["paths"]).Remove("/metrics");
            var problems = OpenApiCoverage.Problems(document, Map());
            CollectionAssert.AreEquivalent(new[]
            {
                "operation weather_get (GET /v1/worlds/{world_id}/weather) has no client method in openapi-map.json",
                "openapi-map.json maps operation metrics_text_metrics_get, which the API no longer has",
                "schema Weather has no C# type in openapi-map.json",
                "schema AgentRead has the property mood, which Hearth.Agent lacks",
                "schema ClockRead.paused ({\"type\":\"string\"}) does not fit Clock's Boolean",
                "schema MemoryKind has the value \"dream\", which Hearth.MemoryKind lacks",
            }, problems);
        }
    }
}

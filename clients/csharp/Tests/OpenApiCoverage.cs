using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using Newtonsoft.Json.Linq;
using Newtonsoft.Json.Serialization;

namespace Hearth.Tests
{
    /// <summary>
    /// What of an OpenAPI document the client lacks, by openapi-map.json (operationId → the
    /// HearthClient method that sends it; schema → the C# type that stands for it): an operation
    /// or schema not mapped, a mapped method or type that does not exist, a schema property the
    /// type has no member for (or the other way round), a property whose C# type cannot hold the
    /// schema's, an enum value without its constant. An empty list: the client covers the API.
    /// </summary>
    public static class OpenApiCoverage
    {
        private static readonly DefaultContractResolver Resolver = new DefaultContractResolver();
        private static readonly string[] Methods = { "get", "put", "post", "patch", "delete" };

        public static List<string> Problems(JObject document, JObject map)
        {
            var problems = new List<string>();
            Operations(document, (JObject)map["operations"], problems);
            Schemas(document, (JObject)map["schemas"], problems);
            return problems;
        }

        private static void Operations(JObject document, JObject map, List<string> problems)
        {
            var seen = new HashSet<string>();
            foreach (var path in ((JObject)document["paths"]).Properties())
                foreach (var op in ((JObject)path.Value).Properties().Where(p => Methods.Contains(p.Name)))
                {
                    string id = (string)op.Value["operationId"];
                    seen.Add(id);
                    string method = (string)map[id];
                    string route = op.Name.ToUpperInvariant() + " " + path.Name;
                    if (method == null)
                        problems.Add("operation " + id + " (" + route + ") has no client method in openapi-map.json");
                    else if (typeof(HearthClient).GetMethods(BindingFlags.Public | BindingFlags.Instance).All(m => m.Name != method))
                        problems.Add("operation " + id + " (" + route + ") maps to HearthClient." + method + ", which does not exist");
                }
            foreach (var stale in map.Properties().Where(p => !seen.Contains(p.Name)))
                problems.Add("openapi-map.json maps operation " + stale.Name + ", which the API no longer has");
        }

        private static void Schemas(JObject document, JObject map, List<string> problems)
        {
            var schemas = (JObject)document["components"]["schemas"];
            foreach (var schema in schemas.Properties())
            {
                string name = (string)map[schema.Name];
                Type type = name == null ? null : Find(name);
                if (name == null) problems.Add("schema " + schema.Name + " has no C# type in openapi-map.json");
                else if (type == null) problems.Add("schema " + schema.Name + " maps to Hearth." + name + ", which does not exist");
                else Shape(schema.Name, (JObject)schema.Value, type, map, problems);
            }
            foreach (var stale in map.Properties().Where(p => schemas[p.Name] == null))
                problems.Add("openapi-map.json maps schema " + stale.Name + ", which the API no longer has");
        }

        private static Type Find(string name)
        {
            return typeof(HearthClient).Assembly.GetType("Hearth." + name);
        }

        private static void Shape(string schema, JObject body, Type type, JObject map, List<string> problems)
        {
            var values = body["enum"] as JArray;
            if (values != null)
            {
                var constants = type.GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => (string)f.GetValue(null)).ToList();
                foreach (var value in values.Select(v => (string)v).Where(v => !constants.Contains(v)))
                    problems.Add("schema " + schema + " has the value \"" + value + "\", which Hearth." + type.Name + " lacks");
                return;
            }
            var properties = body["properties"] as JObject;
            if (properties == null) return;
            bool generic = type.IsGenericTypeDefinition; // Page<T>: its property names, not their types
            if (generic) type = type.MakeGenericType(typeof(JToken));
            var contract = Resolver.ResolveContract(type) as JsonObjectContract;
            if (contract == null)
            {
                problems.Add("schema " + schema + " is an object but Hearth." + type.Name + " is not");
                return;
            }
            var members = contract.Properties.ToDictionary(p => p.PropertyName, p => p.PropertyType);
            foreach (var property in properties.Properties())
            {
                Type member;
                if (!members.TryGetValue(property.Name, out member))
                    problems.Add("schema " + schema + " has the property " + property.Name + ", which Hearth." + type.Name + " lacks");
                else if (!generic && !Holds(member, (JObject)property.Value, map))
                    problems.Add("schema " + schema + "." + property.Name + " (" + property.Value.ToString(Newtonsoft.Json.Formatting.None) + ") does not fit " + type.Name + "'s " + member.Name);
            }
            foreach (var extra in members.Keys.Where(k => properties[k] == null))
                problems.Add("Hearth." + type.Name + " has " + extra + ", which schema " + schema + " lacks");
        }

        /// <summary>Whether a C# property of type <paramref name="clr"/> can hold the values of a schema.</summary>
        private static bool Holds(Type clr, JObject schema, JObject map)
        {
            Type bare = Nullable.GetUnderlyingType(clr) ?? clr;
            var options = schema["anyOf"] as JArray;
            if (options != null)
            {
                var real = options.Cast<JObject>().Where(o => (string)o["type"] != "null").ToList();
                return real.Count == 1 ? Holds(bare, real[0], map) : bare == typeof(JToken);
            }
            string reference = (string)schema["$ref"];
            if (reference != null)
            {
                string target = reference.Substring(reference.LastIndexOf('/') + 1);
                string name = (string)map[target];
                if (name == "Page`1") return bare.IsGenericType && bare.GetGenericTypeDefinition() == typeof(Page<>);
                Type mapped = name == null ? null : Find(name);
                return mapped == bare || (mapped != null && mapped.IsAbstract && mapped.IsSealed && bare == typeof(string));
            }
            switch ((string)schema["type"])
            {
                case "integer": return bare == typeof(int) || bare == typeof(long);
                case "number": return bare == typeof(double);
                case "boolean": return bare == typeof(bool);
                case "string": return bare == typeof(string);
                case "array":
                    return bare.IsGenericType && bare.GetGenericTypeDefinition() == typeof(List<>)
                        && Holds(bare.GetGenericArguments()[0], (JObject)schema["items"] ?? new JObject(), map);
                case "object":
                    return bare == typeof(JObject) || (bare.IsGenericType && bare.GetGenericTypeDefinition() == typeof(Dictionary<,>));
                case null:
                    return bare == typeof(string) || bare == typeof(JToken); // const, untyped
            }
            return false;
        }
    }
}

using Newtonsoft.Json;

namespace Hearth
{
    /// <summary>How the client reads and writes JSON: unset (null) properties are left out of a
    /// request, and game times stay the strings the API wrote (never re-read as local dates).</summary>
    public static class Json
    {
        public static readonly JsonSerializerSettings Settings = new JsonSerializerSettings
        {
            NullValueHandling = NullValueHandling.Ignore,
            DateParseHandling = DateParseHandling.None,
            MissingMemberHandling = MissingMemberHandling.Ignore,
        };

        public static string Write(object value)
        {
            return JsonConvert.SerializeObject(value, Settings);
        }

        public static T Read<T>(string text)
        {
            return JsonConvert.DeserializeObject<T>(text, Settings);
        }
    }
}

namespace UnityEngine
{
    public class Object { }
    public class Component : Object { }
    public class Behaviour : Component { }
    public class MonoBehaviour : Behaviour { }
    public class Transform : Component { public Vector3 position { get; set; } }
    public class TextMesh : Component { public string text { get; set; } }
    public struct Vector3 { public static Vector3 MoveTowards(Vector3 current, Vector3 target, float maxDistanceDelta) { return target; } }
    public static class Time { public static float deltaTime { get { return 0.016f; } } }
    public static class Debug { public static void LogWarning(object message) { } }
    public sealed class TooltipAttribute : System.Attribute { public TooltipAttribute(string tooltip) { } }
}

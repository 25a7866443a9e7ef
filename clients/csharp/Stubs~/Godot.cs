namespace Godot
{
    public class GodotObject { }
    public class Node : GodotObject
    {
        public string Name { get; set; }
        public virtual void _Ready() { }
        public virtual void _Process(double delta) { }
        public virtual void _ExitTree() { }
        public T GetNodeOrNull<T>(string path) where T : class { return null; }
        public SceneTree GetTree() { return new SceneTree(); }
    }
    public class SceneTree { public System.Collections.Generic.List<Node> GetNodesInGroup(string group) { return new System.Collections.Generic.List<Node>(); } }
    public class CanvasItem : Node { }
    public class Node2D : CanvasItem { public Vector2 Position { get; set; } }
    public class Control : CanvasItem { }
    public class Label : Control { public string Text { get; set; } }
    public struct Vector2 { public Vector2 MoveToward(Vector2 to, float delta) { return to; } }
    public static class GD { public static void PushWarning(string message) { } }
    public sealed class ExportAttribute : System.Attribute { }
}

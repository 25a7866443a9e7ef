using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Godot;
using Hearth;

/// <summary>
/// Drives a Hearth world from a Godot 4 (.NET) scene: every tick the world's clock moves on,
/// each NPC reports where it is and whom it sees, and moves to where its action takes place.
/// Attach to a Node; children named after the agents (e.g. "Junie Halvorsen") are the NPCs,
/// each with a Label child; markers in the "places" group named after areas are where they go.
/// </summary>
public partial class HearthTown : Node
{
    [Export] public string BaseUrl = "http://127.0.0.1:8000";
    /// <summary>The world's key (never the admin key in a game).</summary>
    [Export] public string WorldKey = "";
    [Export] public string WorldId = "";
    [Export] public double SecondsPerTick = 2;
    [Export] public double GameMinutesPerTick = 10;
    [Export] public float WalkSpeed = 120;

    private HearthClient client;
    private TownLoop loop;
    private readonly CancellationTokenSource stop = new CancellationTokenSource();

    public override async void _Ready()
    {
        client = new HearthClient(BaseUrl, WorldKey);
        loop = new TownLoop(client, WorldId, GameMinutesPerTick);
        try
        {
            await loop.LoadAsync(stop.Token);
            while (!stop.IsCancellationRequested)
            {
                await loop.TickAsync(stop.Token); // Godot resumes on the main thread
                Show();
                await Task.Delay(TimeSpan.FromSeconds(SecondsPerTick), stop.Token);
            }
        }
        catch (OperationCanceledException)
        {
            // leaving the tree
        }
        catch (HearthException error)
        {
            GD.PushWarning("Hearth: " + error.Status + " " + error.Code + ": " + error.Message + " (request " + error.RequestId + ")");
        }
    }

    private void Show()
    {
        foreach (Npc npc in loop.Npcs.Values)
        {
            var label = GetNodeOrNull<Label>(npc.Name + "/Label");
            if (label != null)
                label.Text = (npc.Emoji ?? "") + " " + (npc.Doing ?? "idle") + (npc.Saying != null ? "\n\"" + npc.Saying + "\"" : "");
        }
    }

    public override void _Process(double delta)
    {
        if (loop == null) return;
        var markers = new Dictionary<string, Node2D>();
        foreach (Node node in GetTree().GetNodesInGroup("places"))
            if (node is Node2D) markers[node.Name.ToString()] = (Node2D)node;
        foreach (Npc npc in loop.Npcs.Values)
        {
            var body = GetNodeOrNull<Node2D>(npc.Name);
            Node2D target;
            if (body != null && markers.TryGetValue(TownLoop.Area(npc.Place), out target))
                body.Position = body.Position.MoveToward(target.Position, WalkSpeed * (float)delta);
        }
    }

    public override void _ExitTree()
    {
        stop.Cancel();
        if (client != null) client.Dispose();
    }
}

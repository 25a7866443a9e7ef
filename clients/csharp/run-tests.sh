#!/usr/bin/env bash
# Build the C# client with Mono's compiler (csc where there is one, else mcs), check that the
# Unity and Godot samples compile against it, and run its NUnit 2.6 tests: the live ones start
# `python -m tests.live_stack --workers` (a whole `hearth up` in a temporary HEARTH_HOME, on a
# free port), with the repository's .venv (or HEARTH_PYTHON). Extra arguments go to
# nunit-console, e.g. `-run=Hearth.Tests.RetryTests`.
#
#   apt-get install mono-mcs libmono-system-net-http4.0-cil libnewtonsoft-json-cil-dev nunit-console libnunit-framework2.6.3-cil
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"

compiler="${CSC:-$(command -v csc || command -v mcs || true)}"
json="$(ls /usr/lib/cli/Newtonsoft.Json-*/Newtonsoft.Json.dll 2>/dev/null | head -n1 || true)"
nunit="$(ls /usr/lib/cli/nunit.framework-2.6*/nunit.framework.dll 2>/dev/null | head -n1 || true)"
if [ -z "$compiler" ] || [ -z "$json" ] || [ -z "$nunit" ] || ! command -v nunit-console >/dev/null; then
    echo "run-tests.sh: needs Mono's compiler, Json.NET and NUnit 2.6:" >&2
    echo "  apt-get install mono-mcs libmono-system-net-http4.0-cil libnewtonsoft-json-cil-dev nunit-console libnunit-framework2.6.3-cil" >&2
    exit 2
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# C# 6: what Unity's, Godot's and Mono's compilers all accept
build=("$compiler" -nologo -target:library -langversion:6 -warnaserror -r:System.Net.Http -r:"$json")
"${build[@]}" -out:"$out/Hearth.Client.dll" Runtime/*.cs
"${build[@]}" -out:"$out/Samples.Unity.dll" -r:"$out/Hearth.Client.dll" 'Samples~/Unity/HearthTown.cs' 'Stubs~/UnityEngine.cs'
"${build[@]}" -out:"$out/Samples.Godot.dll" -r:"$out/Hearth.Client.dll" 'Samples~/Godot/HearthTown.cs' 'Stubs~/Godot.cs'
"${build[@]}" -out:"$out/Hearth.Client.Tests.dll" -r:"$out/Hearth.Client.dll" -r:"$nunit" Tests/*.cs
cp "$json" "$out/"

HEARTH_REPO="$repo" nunit-console -nologo -noshadow -labels "$out/Hearth.Client.Tests.dll" \
    -xml="${HEARTH_CSHARP_RESULTS:-$out/TestResult.xml}" "$@"

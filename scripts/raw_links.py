#!/usr/bin/env python3
"""Fails on a doc link that rendered raw (`[<code>Name</code>]` in the HTML:
a link rustdoc could not resolve) in the workspace's own docs.

    for crate in pool-core alloc-counter figures pool-effects pool-audio bevy_pool showcase benches; do
        cargo doc --no-deps -p "$crate"
    done
    python3 scripts/raw_links.py

(One crate at a time, dependencies first: rustdoc links to another workspace
crate's items only if that crate's docs are already in target/doc.)

Trait implementations copy their trait's docs into our pages: Bevy's and
kira's own docs link to items of theirs that a `--no-deps` build cannot reach.
Those names are listed here and skipped; any other raw link is ours to fix.
"""
import glob
import re
import sys

THEIRS = {
    # bevy_ecs, bevy_reflect, bevy_asset, bevy_app, tracing (derives and trait impls)
    "WithDispatch", "Span", "Component", "ComponentHook", "Template", "Template::Output",
    "EntityMapper", "Bundle", "ComponentRelationshipAccessor",
    "Component&lt;Mutability = Mutable&gt;", "Component&lt;Mutability = Immutable&gt;",
    "App", "AssetLoader", "AssetLoader::Asset", "Reader", "SystemSet", "Plugin", "Asset",
    "TypePath::type_path", "TypePath::type_ident", "TypePath::short_type_path",
    "TypePath::crate_name", "TypePath::module_path", "SystemTypeSet", "AnonymousSet",
    "Interned", "ScheduleConfigs", "SystemCondition",
    # FromWorld and SystemParam (the entity pools' registry and `EntityPools`)
    "World", "SystemParam",
    # Bevy's `#[require(..)]` writes "Required Components: [..]" unresolved
    "Transform",
    # kira's StaticSoundData, re-exported in bevy_pool's prelude
    "MediaSource",
    # bevy_reflect's derives (the `reflect` feature)
    "TypeInfo", "Typed::type_info", "TypeRegistration", "ReflectCloneError",
    "PartialReflect", "DynamicTupleStruct", "DynamicStruct", "DynamicEnum",
}

crates = ["pool_core", "pool_effects", "pool_audio", "bevy_pool", "alloc_counter", "figures"]
found = []
for crate in crates:
    for path in glob.glob(f"target/doc/{crate}/**/*.html", recursive=True):
        text = open(path, encoding="utf-8").read()
        for match in re.finditer(r"\[<code>([^<]*)</code>\]", text):
            if match.group(1) not in THEIRS:
                context = re.sub(r"<[^>]*>", "", text[max(0, match.start() - 120):match.end()])
                found.append(f"{path}: [{match.group(1)}] in: ...{context[-100:]}")
for line in found:
    print(line)
if found:
    print(f"{len(found)} raw doc links: write them so rustdoc resolves them")
    sys.exit(1)
print("no raw doc link in the workspace's own docs")

#!/usr/bin/env bash
# Runs a command as on a machine without media tools or fonts: every PATH folder that holds ffmpeg,
# ffprobe or espeak-ng is replaced by a copy made of links to everything else in it, and fontconfig
# is given a configuration that lists no fonts. `.ci/run` runs `npm test` this way, so CI proves that
# the product needs nothing but what `npm ci` installs. Usage: scripts/without-media-tools.sh CMD...
set -euo pipefail
hidden=(ffmpeg ffprobe espeak-ng espeak speak-ng fc-list fc-match)
shadow_root="$(mktemp -d "${TMPDIR:-/tmp}/without-media-tools.XXXXXX")"
trap 'rm -rf "$shadow_root"' EXIT
new_path=()
IFS=: read -r -a dirs <<<"$PATH"
for i in "${!dirs[@]}"; do
  dir="${dirs[$i]}"
  [[ -d "$dir" ]] || continue
  holds=false
  for tool in "${hidden[@]}"; do [[ -e "$dir/$tool" ]] && holds=true; done
  if ! $holds; then new_path+=("$dir"); continue; fi
  shadow="$shadow_root/$i"
  mkdir -p "$shadow"
  for entry in "$dir"/* "$dir"/.[!.]*; do
    [[ -e "$entry" || -L "$entry" ]] || continue
    name="$(basename "$entry")"
    skip=false
    for tool in "${hidden[@]}"; do [[ "$name" == "$tool" ]] && skip=true; done
    $skip || ln -s "$entry" "$shadow/$name"
  done
  new_path+=("$shadow")
done
printf '<?xml version="1.0"?>\n<fontconfig></fontconfig>\n' >"$shadow_root/fonts.conf"
export PATH="$(IFS=:; echo "${new_path[*]}")"
export FONTCONFIG_FILE="$shadow_root/fonts.conf"
unset FFMPEG_PATH FFPROBE_PATH
for tool in "${hidden[@]:0:3}"; do
  if command -v "$tool" >/dev/null 2>&1; then echo "without-media-tools: $tool is still on PATH" >&2; exit 1; fi
done
echo "without-media-tools: no ffmpeg, ffprobe or espeak-ng on PATH; fontconfig lists no fonts" >&2
# Run the command as a child, passing on the signals that stop it, so the shadow folder is removed after.
"$@" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM INT
status=0
wait "$child" || status=$?
# A trapped signal interrupts the first wait; wait again for the child to finish.
if kill -0 "$child" 2>/dev/null; then wait "$child" || status=$?; fi
exit "$status"

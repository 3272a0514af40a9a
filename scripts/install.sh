#!/usr/bin/env bash
# Builds canopy in release mode and installs it as a command: the binary, its shell
# completions (bash, zsh, fish) and a man page, so cron, a systemd timer or a CI job runs
# `canopy`, not `swift run`.
#
#   scripts/install.sh                       # into /usr/local (as root)
#   scripts/install.sh --prefix ~/.local     # for one user; ~/.local/bin must be on PATH
#   DESTDIR=/tmp/stage scripts/install.sh --prefix /usr   # staged, for a package
#
# Options:
#   --prefix DIR    where to install (default /usr/local): DIR/bin, DIR/share/...
#   --binary FILE   install this already built canopy instead of building one
#   --no-man        skip the man page (it needs a release build of the whole package)
#
# Needs the Swift toolchain and the C libraries of the README's set-up line.
set -euo pipefail

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

prefix=/usr/local
binary=
man=yes
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --binary) [ $# -ge 2 ] || { usage >&2; exit 2; }; binary=$2; shift 2 ;;
        --binary=*) binary=${1#--binary=}; shift ;;
        --no-man) man=no; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done
case $prefix in
    /*) ;;
    *) echo "install.sh: --prefix must be an absolute path, not $prefix" >&2; exit 2 ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ -z "$binary" ]; then
    swift build -c release --product canopy
    binary="$(swift build -c release --show-bin-path)/canopy"
fi
[ -x "$binary" ] || { echo "install.sh: $binary is not an executable" >&2; exit 2; }

root="${DESTDIR:-}$prefix"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

install -d "$root/bin"
install -m 0755 "$binary" "$root/bin/canopy"

# swift-argument-parser writes the completion scripts from the same declarations as the
# parser, so they always match the installed binary. Written to a file first: a failure
# then leaves no half-written script behind.
completion() { # shell, destination
    "$binary" --generate-completion-script "$1" >"$work/completion"
    [ -s "$work/completion" ] || { echo "install.sh: empty $1 completion script" >&2; exit 1; }
    install -d "$(dirname "$2")"
    install -m 0644 "$work/completion" "$2"
}
completion bash "$root/share/bash-completion/completions/canopy"
completion zsh "$root/share/zsh/site-functions/_canopy"
completion fish "$root/share/fish/vendor_completions.d/canopy.fish"

if [ "$man" = yes ]; then
    # swift-argument-parser's generate-manual plugin (from the package's own checkout, so it
    # works offline) builds every product of the package in release mode, then writes an
    # mdoc page from the binary's command tree: .build/plugins/GenerateManual/outputs/canopy.
    date_arguments=()
    if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then # reproducible packages: the date of the sources
        date_arguments=(--date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)")
    fi
    swift package plugin generate-manual --configuration release "${date_arguments[@]}"
    page=.build/plugins/GenerateManual/outputs/canopy/canopy.1
    [ -s "$page" ] || { echo "install.sh: the generate-manual plugin wrote no $page" >&2; exit 1; }
    install -d "$root/share/man/man1"
    install -m 0644 "$page" "$root/share/man/man1/canopy.1"
fi

echo "installed $root/bin/canopy"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) [ -n "${DESTDIR:-}" ] || echo "note: $prefix/bin is not on PATH" ;;
esac

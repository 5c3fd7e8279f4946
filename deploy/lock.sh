#!/bin/sh
# Regenerate deploy/requirements.lock: the project's runtime dependencies and theirs, resolved
# in a clean venv (no test tools). Run after changing [project.dependencies] in pyproject.toml:
#
#     sh deploy/lock.sh            # PYTHON=python3.12 sh deploy/lock.sh for another interpreter
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
"${PYTHON:-python3.11}" -m venv "$venv"
# from a copy of what the image copies, so that the build leaves nothing in the work tree
mkdir "$venv/src"
cp -R "$root/pyproject.toml" "$root/README.md" "$root/domain" "$root/projections" \
    "$root/service" "$venv/src/"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$venv/src"
{
    echo "# The exact versions the server image installs (deploy/Dockerfile), resolved in a clean"
    echo "# venv of this project by deploy/lock.sh (regenerate with it; do not edit by hand)."
    "$venv/bin/pip" freeze --exclude papyrus
} > "$root/deploy/requirements.lock"
echo "wrote $root/deploy/requirements.lock"

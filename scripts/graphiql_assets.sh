#!/usr/bin/env bash
# Refresh the GraphiQL console's assets (run by hand, once per version bump; not at run time).
#
# Installs the pinned npm packages of service/api/graphql/console/package.json (exactly as
# package-lock.json says) into a throwaway folder, then copies the built browser files and each
# package's LICENSE into service/api/graphql/console/static/, which is committed: the server
# serves them itself, so running Papyrus needs neither npm nor the internet.
set -euo pipefail
cd "$(dirname "$0")/.."
console=service/api/graphql/console
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cp "$console/package.json" "$work/"
if [[ -f "$console/package-lock.json" ]]; then
  cp "$console/package-lock.json" "$work/"
  (cd "$work" && npm ci --ignore-scripts --no-audit --no-fund)
else
  (cd "$work" && npm install --ignore-scripts --no-audit --no-fund)
  cp "$work/package-lock.json" "$console/"
fi

modules="$work/node_modules"
static="$console/static"
rm -rf "$static"
mkdir -p "$static"/{react,react-dom,graphiql}

cp "$modules/react/umd/react.production.min.js" "$static/react/"
cp "$modules/react/LICENSE" "$static/react/"
cp "$modules/react-dom/umd/react-dom.production.min.js" "$static/react-dom/"
cp "$modules/react-dom/LICENSE" "$static/react-dom/"
cp "$modules/graphiql/graphiql.min.js" "$modules/graphiql/graphiql.min.css" "$static/graphiql/"
cp "$modules/graphiql/LICENSE" "$static/graphiql/"

# the versions served, for the page and for whoever reads the folder
node -e '
const lock = require(process.argv[1]);
const out = {};
for (const name of ["react", "react-dom", "graphiql"]) {
  out[name] = lock.packages["node_modules/" + name].version;
}
console.log(JSON.stringify(out, null, 2));
' "$PWD/$console/package-lock.json" > "$static/versions.json"
echo "GraphiQL assets in $static:"
find "$static" -type f | sort

#!/usr/bin/env bash
# Runs `nncli upload` against fake_nnc_server.py on 127.0.0.1 (never any other address), then prints the
# requests the server saw and the member list of the uploaded TAR, for cli_case.sh to check.
#   upload_case.sh NNCLI TOKEN FILE   (run in cli_case.sh's fresh work directory)
set -u
nncli=$1; token=$2; file=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p server
python3 "$here/fake_nnc_server.py" server/port server 30 &
server_pid=$!
for _ in $(seq 100); do [ -s server/port ] && break; sleep 0.1; done
[ -s server/port ] || { echo "upload_case.sh: the test server did not start" >&2; kill "$server_pid"; exit 2; }
port=$(cat server/port)
"$nncli" upload -e "http://127.0.0.1:$port" --s3-endpoint "http://127.0.0.1:$port" "$token" "$file"
status=$?
kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null
cat server/requests.log 2>/dev/null
if [ -f server/uploaded.tar ]; then
  tar -tf server/uploaded.tar | head -5
  tar -xOf server/uploaded.tar index.csv | head -3
fi
exit $status

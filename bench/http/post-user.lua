-- wrk script for POST /users: the same valid body on every request.
wrk.method = "POST"
wrk.body = '{"name":"Ada Lovelace","email":"ada@example.com"}'
wrk.headers["Content-Type"] = "application/json"

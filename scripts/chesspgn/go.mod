module github.com/plateau/plateau/scripts/chesspgn

go 1.24

require github.com/corentings/chess/v2 v2.3.2

require golang.org/x/exp v0.0.0-20250128182459-e0ece0dbea4c // indirect

-- Demo data for local runs (`npm start` runs this once, on the first start of a data directory).
-- The demo account and its workspace arrive with the accounts and workspaces features.
select 1;

-- The __words__ records of the __name__ module. Applied once by `keelson db migrate` or at the
-- app's start; once applied, never edit it: add a new migration (`keelson db new <name>`).
create table __table__ (
  id integer generated always as identity primary key,
  name text not null check (length(name) between 1 and 200),
  created_at timestamptz not null default now()
);

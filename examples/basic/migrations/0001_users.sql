-- The users of the example service, and the first one.
create table users (
  id integer generated always as identity primary key,
  name text not null check (length(name) between 1 and 100),
  email text not null,
  constraint users_email_key unique (email)
);

insert into users (name, email) values ('Ada Lovelace', 'ada@example.com');

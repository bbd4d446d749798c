-- fractional-indexing's generateKeyBetween (4.0.0, its default digits), in SQL, so that a move can
-- compute where a task lands in the statement that moves it, behind the reads of its neighbours and in
-- the same round trip (docs/decisions/0016). Keys are base-62 digits after a head that says how long
-- the integer part is ('a'..'z' for 2..27 characters, 'Z'..'A' likewise below), compared byte by byte
-- (collate "C"). tests/db/order-key-between.test.ts holds it to the library's answers.

create function private.order_key_digit(digit text)
returns integer
language sql
immutable
strict
set search_path = ''
as $$
  select strpos('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', digit) - 1;
$$;

-- The length of the integer part a key starting with `head` has.
create function private.order_key_integer_length(head text)
returns integer
language plpgsql
immutable
strict
set search_path = ''
as $$
declare
  i integer := strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', head) - 1;
begin
  if i < 0 or length(head) <> 1 then
    raise exception 'invalid order key head: %', head;
  end if;
  return case when i < 26 then 26 - i + 1 else i - 26 + 2 end;
end;
$$;

create function private.order_key_integer_part(key text)
returns text
language plpgsql
immutable
strict
set search_path = ''
as $$
declare
  integer_length integer := private.order_key_integer_length(left(key, 1));
begin
  if integer_length > length(key) then
    raise exception 'invalid order key: %', key;
  end if;
  return left(key, integer_length);
end;
$$;

create function private.order_key_validate(key text)
returns void
language plpgsql
immutable
strict
set search_path = ''
as $$
begin
  if key = 'A' || repeat('0', 26) then
    raise exception 'invalid order key: %', key;
  end if;
  if right(substr(key, length(private.order_key_integer_part(key)) + 1), 1) = '0' then
    raise exception 'invalid order key: %', key;
  end if;
end;
$$;

-- A digit string strictly between `a` and `b` (null: no upper end), as fractional-indexing's midpoint.
create function private.order_key_midpoint(a text, b text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  digits constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  n integer := 0;
  digit_a integer;
  digit_b integer;
begin
  if b is not null and a collate "C" >= b collate "C" then
    raise exception '% >= %', a, b;
  end if;
  if right(a, 1) = '0' or right(coalesce(b, ''), 1) = '0' then
    raise exception 'trailing zero';
  end if;
  if b is not null and b <> '' then
    while coalesce(nullif(substr(a, n + 1, 1), ''), '0') = substr(b, n + 1, 1) loop
      n := n + 1;
    end loop;
    if n > 0 then
      return left(b, n) || private.order_key_midpoint(substr(a, n + 1), substr(b, n + 1));
    end if;
  end if;
  digit_a := case when a = '' then 0 else private.order_key_digit(left(a, 1)) end;
  digit_b := case when b is null then 62 else private.order_key_digit(left(b, 1)) end;
  if digit_b - digit_a > 1 then
    return substr(digits, (digit_a + digit_b + 1) / 2 + 1, 1);
  end if;
  if b is not null and length(b) > 1 then
    return left(b, 1);
  end if;
  return substr(digits, digit_a + 1, 1) || private.order_key_midpoint(substr(a, 2), null);
end;
$$;

-- The next integer part after `x`, or null past the largest.
create function private.order_key_increment(x text)
returns text
language plpgsql
immutable
strict
set search_path = ''
as $$
declare
  digits constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  int_digits constant text := 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  head text := left(x, 1);
  tail_digits text := '';
  d integer;
  head_index integer;
  next_head text;
  length_delta integer;
begin
  if length(x) <> private.order_key_integer_length(head) then
    raise exception 'invalid integer part of order key: %', x;
  end if;
  for i in reverse length(x) - 1 .. 1 loop
    d := private.order_key_digit(substr(x, i + 1, 1)) + 1;
    if d = 62 then
      tail_digits := '0' || tail_digits;
    else
      return head || substr(x, 2, i - 1) || substr(digits, d + 1, 1) || tail_digits;
    end if;
  end loop;
  head_index := strpos(int_digits, head) - 1;
  if head_index = 51 then
    return null;
  end if;
  next_head := substr(int_digits, head_index + 2, 1);
  length_delta := private.order_key_integer_length(next_head) - private.order_key_integer_length(head);
  return next_head || case
    when length_delta > 0 then tail_digits || '0'
    when length_delta < 0 then substr(tail_digits, 2)
    else tail_digits
  end;
end;
$$;

-- The integer part before `x`, or null below the smallest.
create function private.order_key_decrement(x text)
returns text
language plpgsql
immutable
strict
set search_path = ''
as $$
declare
  digits constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  int_digits constant text := 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  head text := left(x, 1);
  tail_digits text := '';
  d integer;
  head_index integer;
  previous_head text;
  length_delta integer;
begin
  if length(x) <> private.order_key_integer_length(head) then
    raise exception 'invalid integer part of order key: %', x;
  end if;
  for i in reverse length(x) - 1 .. 1 loop
    d := private.order_key_digit(substr(x, i + 1, 1)) - 1;
    if d = -1 then
      tail_digits := 'z' || tail_digits;
    else
      return head || substr(x, 2, i - 1) || substr(digits, d + 1, 1) || tail_digits;
    end if;
  end loop;
  head_index := strpos(int_digits, head) - 1;
  if head_index = 0 then
    return null;
  end if;
  previous_head := substr(int_digits, head_index, 1);
  length_delta := private.order_key_integer_length(previous_head) - private.order_key_integer_length(head);
  return previous_head || case
    when length_delta > 0 then tail_digits || 'z'
    when length_delta < 0 then substr(tail_digits, 2)
    else tail_digits
  end;
end;
$$;

-- A key strictly between `a` and `b` (either null for an open end), as generateKeyBetween(a, b).
create function private.order_key_between(a text, b text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  smallest_integer constant text := 'A' || repeat('0', 26);
  lower text := a;
  upper text := b;
  int_a text;
  int_b text;
  stepped text;
begin
  if lower is not null then
    perform private.order_key_validate(lower);
  end if;
  if upper is not null then
    perform private.order_key_validate(upper);
  end if;
  if lower is not null and upper is not null and lower collate "C" > upper collate "C" then
    lower := b;
    upper := a;
  end if;
  if lower is null and upper is null then
    return 'a0';
  end if;
  if lower is null then
    int_b := private.order_key_integer_part(upper);
    if int_b = smallest_integer then
      return int_b || private.order_key_midpoint('', substr(upper, length(int_b) + 1));
    end if;
    if int_b collate "C" < upper collate "C" then
      return int_b;
    end if;
    stepped := private.order_key_decrement(int_b);
    if stepped is null then
      raise exception 'cannot decrement any more';
    end if;
    return stepped;
  end if;
  int_a := private.order_key_integer_part(lower);
  if upper is null then
    stepped := private.order_key_increment(int_a);
    return coalesce(stepped, int_a || private.order_key_midpoint(substr(lower, length(int_a) + 1), null));
  end if;
  int_b := private.order_key_integer_part(upper);
  if int_a = int_b then
    return int_a || private.order_key_midpoint(substr(lower, length(int_a) + 1), substr(upper, length(int_b) + 1));
  end if;
  stepped := private.order_key_increment(int_a);
  if stepped is null then
    raise exception 'cannot increment any more';
  end if;
  if stepped collate "C" < upper collate "C" then
    return stepped;
  end if;
  return int_a || private.order_key_midpoint(substr(lower, length(int_a) + 1), null);
end;
$$;

revoke all on function private.order_key_digit(text), private.order_key_integer_length(text),
  private.order_key_integer_part(text), private.order_key_validate(text),
  private.order_key_midpoint(text, text), private.order_key_increment(text),
  private.order_key_decrement(text), private.order_key_between(text, text) from public;
grant execute on function private.order_key_digit(text), private.order_key_integer_length(text),
  private.order_key_integer_part(text), private.order_key_validate(text),
  private.order_key_midpoint(text, text), private.order_key_increment(text),
  private.order_key_decrement(text), private.order_key_between(text, text) to authenticated;

"""The pit board's named users (controller.pit.board.users, `tablectl pit user`): a login per
person with a role, so that every action from the board is someone's (issue 22)."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from controller.pit.board.users import Users, UsersError


def tablectl(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=60)


def test_users_are_added_changed_and_removed_with_tablectl_pit_user(tmp_path: Path):
    f = str(tmp_path / "users")
    done = tablectl("pit", "user", "add", "ann", "--role", "supervisor", "--users-file", f, "--password-stdin",
                    stdin="first secret\n")
    assert done.returncode == 0 and "added ann (supervisor)" in done.stdout
    assert stat.S_IMODE(Path(f).stat().st_mode) == 0o600
    assert "first secret" not in Path(f).read_text()           # only its scrypt hash is kept
    tablectl("pit", "user", "add", "bob", "--role", "viewer", "--users-file", f, "--password-stdin", stdin="b\n")
    assert tablectl("pit", "user", "list", "--users-file", f).stdout == "ann supervisor\nbob viewer\n"
    assert tablectl("pit", "user", "role", "bob", "--role", "admin", "--users-file", f).returncode == 0
    assert tablectl("pit", "user", "password", "ann", "--users-file", f, "--password-stdin",
                    stdin="second\n").returncode == 0
    users = Users.load(Path(f))
    assert users.check("ann", "second").role == "supervisor" and users.check("ann", "first secret") is None
    assert users.get("bob").role == "admin"
    assert tablectl("pit", "user", "remove", "bob", "--users-file", f).returncode == 0
    assert tablectl("pit", "user", "list", "--users-file", f).stdout == "ann supervisor\n"


@pytest.mark.parametrize(("args", "why"), [
    (("add", "Ann", "--role", "viewer", "--password-stdin"), "user add: a user's name is lower case letters"),
    (("add", "cat", "--role", "boss", "--password-stdin"), "user add: a role is one of viewer, supervisor, admin"),
    (("add", "ann", "--role", "viewer", "--password-stdin"), "user add: user ann exists"),
    (("role", "zed", "--role", "viewer"), "user role: no user zed in"),
    (("remove", "zed"), "user remove: no user zed in"),
])
def test_a_change_that_cannot_be_made_is_one_line_and_exit_2(tmp_path: Path, args: tuple[str, ...], why: str):
    f = str(tmp_path / "users")
    tablectl("pit", "user", "add", "ann", "--role", "viewer", "--users-file", f, "--password-stdin", stdin="pw\n")
    before = Path(f).read_text()
    done = tablectl("pit", "user", *args, "--users-file", f, stdin="pw2\n")
    assert done.returncode == 2 and done.stderr.startswith(f"tablectl pit: {why}") and "Traceback" not in done.stderr
    assert Path(f).read_text() == before


def test_a_users_file_that_cannot_be_read_names_its_line_and_never_its_content(tmp_path: Path):
    f = tmp_path / "users"
    f.write_text("# a comment\nann supervisor scrypt$16384$8$1$AAAAAAAAAAA=$notbase64!!\n")
    with pytest.raises(UsersError) as caught:
        Users.load(f)
    assert str(caught.value).startswith(f"--users-file {f}, line 2: a scrypt line's")
    assert "notbase64" not in str(caught.value)
    f.write_text("ann supervisor\n")
    with pytest.raises(UsersError, match="line 1: a line is NAME ROLE scrypt"):
        Users.load(f)
    with pytest.raises(UsersError, match="no such file"):
        Users.load(tmp_path / "none")


def test_a_role_allows_what_the_ones_below_it_do():
    users = Users(Path("/nonexistent"))
    viewer, supervisor, admin = (users.add(n, r, "pw") for n, r in
                                 (("v", "viewer"), ("s", "supervisor"), ("a", "admin")))
    assert viewer.may("view") and viewer.may("export") and not viewer.may("void") and not viewer.may("acknowledge")
    assert supervisor.may("void") and supervisor.may("resume") and supervisor.may("acknowledge")
    assert admin.may("void")
    assert users.check("nobody", "pw") is None and users.check("v", "wrong") is None

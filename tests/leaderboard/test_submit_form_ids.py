"""The upload form reads the split it was sent as an id only when it is ASCII digits (catalog.selectors.ascii_id,
the one parser of ids in references, as the API's system references): a Unicode digit ("³", "١") is an unknown
split, answered 400 with the form, never the 500 that `str.isdigit()` then `int()` gave."""
from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.selectors import ascii_id
from catalog.services import system_create, team_for_user


@pytest.mark.parametrize("split", ["³", "١٢", "²3"])
def test_a_unicode_digit_split_on_the_upload_form_is_a_400_not_a_500(signed_in, client, demo_split, demo_zip,
                                                                     split):
    user, _ = signed_in("uploader")
    system = system_create(team=team_for_user(user=user), name="Form Uploader")
    upload = SimpleUploadedFile("a.zip", demo_zip("agent-alpha"), content_type="application/zip")
    resp = client.post("/submit/", {"system": system.pk, "split": split, "archive": upload})
    assert resp.status_code == 400
    assert "Select a valid choice" in resp.content.decode()


@pytest.mark.parametrize("text, expected", [("12", 12), ("007", 7), ("³", None), ("١٢", None), ("", None),
                                            ("-1", None), ("1.0", None), (" 1", None), ("x", None)])
def test_ascii_id(text, expected):
    assert ascii_id(text) == expected

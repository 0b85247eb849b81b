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
                                            ("-1", None), ("1.0", None), (" 1", None), ("x", None),
                                            (str(2 ** 63 - 1), 2 ** 63 - 1), (str(2 ** 63), None),
                                            ("0" * 29 + "5", 5), ("9" * 5000, None)])
def test_ascii_id(text, expected):
    assert ascii_id(text) == expected


def test_a_reference_of_thousands_of_digits_is_an_unknown_system_or_split_not_a_500(signed_in, client, demo_split,
                                                                                  demo_zip):
    """Break-it pass 10 of issue 13: `int()` refuses more than 4,300 digits (a 500 on the API and the form)."""
    from rest_framework.test import APIClient

    user, token = signed_in("digits")
    system = system_create(team=team_for_user(user=user), name="Digits")
    upload = SimpleUploadedFile("a.zip", demo_zip("agent-alpha"), content_type="application/zip")
    resp = client.post("/submit/", {"system": system.pk, "split": "9" * 5000, "archive": upload})
    assert resp.status_code == 400 and "Select a valid choice" in resp.content.decode()
    api = APIClient()
    api.credentials(**token)
    upload = SimpleUploadedFile("a.zip", demo_zip("agent-alpha"), content_type="application/zip")
    resp = api.post("/api/v1/submissions/", {"system": "9" * 5000, "archive": upload}, format="multipart")
    assert resp.status_code in (400, 403, 404) and "detail" in resp.json()

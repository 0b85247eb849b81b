"""POST /api/v1/auth/token/ with a JSON body that is not an object (break-it pass 7): `[]`, `null`, a string or a
number was a 500 (the lockout check read `request.data.get`); it is a 400 that says what the body must be."""
import json

import pytest

pytestmark = pytest.mark.usefixtures("fresh_rates")  # the token endpoint's own rate starts empty


@pytest.mark.django_db
@pytest.mark.parametrize("body", [[], None, "s", 5, ["apiuser", "pw"]])
def test_a_body_that_is_not_an_object_is_a_400_that_says_so(client, body):
    response = client.post("/api/v1/auth/token/", data=json.dumps(body), content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {"detail": "The body must be a JSON object with username and password."}


@pytest.mark.django_db
def test_an_object_body_still_signs_in_and_a_wrong_one_is_still_a_400(client, make_user):
    make_user("apishape")
    wrong = client.post("/api/v1/auth/token/", data=json.dumps({"username": "apishape", "password": "nope"}),
                        content_type="application/json")
    assert wrong.status_code == 400 and "non_field_errors" in wrong.json()
    right = client.post("/api/v1/auth/token/", content_type="application/json",
                        data=json.dumps({"username": "apishape", "password": "pw-apishape-Secure-123"}))
    assert right.status_code == 200 and right.json()["token"]


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{"username": ["a"], "password": "x"}, {"username": {"a": 1}, "password": 5},
                                  {"username": None, "password": None}, {}])
def test_an_object_with_fields_of_the_wrong_kind_is_a_400(client, body):
    response = client.post("/api/v1/auth/token/", data=json.dumps(body), content_type="application/json")

    assert response.status_code == 400

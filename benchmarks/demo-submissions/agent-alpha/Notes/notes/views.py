from collections import Counter

from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from . import store


class NoteInput(serializers.Serializer):
    title = serializers.CharField(min_length=1, max_length=120)
    content = serializers.CharField(required=False, allow_blank=True)
    tags = serializers.ListField(child=serializers.CharField(min_length=1, max_length=30), required=False)

    def validate_tags(self, value):
        seen = []
        for tag in value:
            if tag not in seen:
                seen.append(tag)
        return seen


NOT_FOUND = {"detail": "Not found."}


@api_view(["GET"])
def health(request):
    return Response({"status": "ok"})


@api_view(["GET", "POST"])
def notes_collection(request):
    if request.method == "POST":
        serializer = NoteInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(store.add(serializer.validated_data), status=201)
    tag = request.GET.get("tag")
    notes = store.all_notes()
    if tag is not None:
        notes = [n for n in notes if tag in n["tags"]]
    return Response(notes)


@api_view(["GET", "PATCH", "DELETE"])
def note_item(request, pk):
    if store.get(pk) is None:
        return Response(NOT_FOUND, status=404)
    if request.method == "GET":
        return Response(store.get(pk))
    if request.method == "DELETE":
        store.remove(pk)
        return Response(status=204)
    serializer = NoteInput(data=request.data, partial=True)
    serializer.is_valid(raise_exception=True)
    return Response(store.change(pk, dict(serializer.validated_data)))


@api_view(["GET"])
def tags(request):
    counter = Counter(t for n in store.all_notes() for t in n["tags"])
    return Response([{"tag": name, "count": counter[name]} for name in sorted(counter)])

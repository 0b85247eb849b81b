package com.example.coursescheduling.model;

import java.util.ArrayList;
import java.util.List;

/** A course offered in a term, taught by a teacher, for some majors (student groups). */
public class Offering {
    public Long id;
    public Long courseId;
    public Long termId;
    public Long teacherId;
    public Integer maxCapacity;
    public List<Long> majorIds = new ArrayList<>();
}

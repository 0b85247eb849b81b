package com.example.coursescheduling.model;

import java.util.List;

/** One offering placed into a classroom at a time slot (day of week 1-5, period 1-5). */
public class ScheduleEntry {
    public Long id;
    public Long offeringId;
    public Long termId;
    public Long courseId;
    public String courseName;
    public Long teacherId;
    public String teacherName;
    public Long classroomId;
    public String classroomName;
    public List<Long> majorIds;
    public Integer dayOfWeek;
    public Integer period;
    public String timeSlot;
}
